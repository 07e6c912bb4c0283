import StateRestoration
import Synchronization
import Testing

// An example, as much documentation as test: the mail client of the "Using with
// SwiftUI" and "Using with UIKit" articles, driven through the same projections
// their glue binds to, with each UI action written as the binding's setter the
// framework would call.

// MARK: - The app's screens

/// The mail client's types, kept apart from the other tests' screens.
private enum Mail {
    final class MailService: Sendable {
        static let shared = MailService()
    }

    struct MailboxScreen: RestorableScreen {
        static let typeKey: ScreenTypeKey = "mailbox"
        struct State: Codable, Sendable, Equatable { var folder = "inbox" }
        var state = State()
        var mail: MailService?
        init(state: State) { self.state = state }
    }

    struct ThreadScreen: RestorableScreen {
        static let typeKey: ScreenTypeKey = "thread"
        struct State: Codable, Sendable, Equatable { var threadID: String }
        var state: State
        var mail: MailService?
        init(state: State) { self.state = state }
    }

    struct ComposeScreen: RestorableScreen {
        static let typeKey: ScreenTypeKey = "compose"
        struct State: Codable, Sendable, Equatable {
            var to = ""
            var body = ""
        }
        var state = State()
    }

    struct SettingsScreen: RestorableScreen {
        static let typeKey: ScreenTypeKey = "settings"
        struct State: Codable, Sendable, Equatable { var signature = "" }
        var state = State()
    }

    /// The signed-in account every window shares.
    final class Account: RestorableObject {
        struct State: Codable, Sendable { var signature: String }
        private let signature = Mutex("")
        var currentSignature: String {
            get { signature.withLock { $0 } }
            set { signature.withLock { $0 = newValue } }
        }
        func encodeRestorableState() async -> State { State(signature: currentSignature) }
        func decodeRestorableState(_ state: State) async { currentSignature = state.signature }
    }

    enum MailScreens {
        static let declaration = ScreenDeclaration {
            Tabs("tabs", selected: "inbox") {
                Stack("inbox", root: MailboxScreen(state: .init())) {
                    Screen(ThreadScreen.self, id: "thread")
                }
                .presents { Screen(ComposeScreen.self, id: "compose") }
                Screen(SettingsScreen(), id: "settings")
            }
        }
    }
}

private typealias MailModel = RestorationModel<DefaultRestorationDelegate>

@MainActor
private func makeWindow(_ scenes: RestorationScenes<DefaultRestorationDelegate>, _ windowID: String) throws
    -> MailModel
{
    let model = try MailModel(coordinator: scenes.coordinator(for: windowID))
    model.prepare(Mail.MailboxScreen.self) { screen, _ in screen.mail = .shared }
    model.prepare(Mail.ThreadScreen.self) { screen, _ in screen.mail = .shared }
    return model
}

// MARK: - The user's afternoon

@MainActor
@Suite struct MailClientExampleTests {
    @Test func aDraftInASheetOverAThreadComesBack() async throws {
        let store = InMemoryStore()
        let scenes = RestorationScenes(screens: Mail.MailScreens.declaration, store: store)
        let window = try makeWindow(scenes, "window-1")
        try await window.launch()
        await window.restoredInterfaceDidAppear()

        // NavigationLink(value:) appends; the back swipe sets a shorter path.
        let path = window.path(of: "inbox")
        path.wrappedValue.append(ScreenEntry(Mail.ThreadScreen(state: .init(threadID: "t-1"))))
        path.wrappedValue.append(ScreenEntry(Mail.ThreadScreen(state: .init(threadID: "t-2"))))
        path.wrappedValue.removeLast()
        #expect(path.wrappedValue.map(\.typeKey) == ["thread"])
        let thread = try #require(path.wrappedValue.first)
        #expect(window.tree.screen(Mail.ThreadScreen.self, at: thread.reference)?.mail != nil)  // prepared

        // The Compose button presents; the text fields write the draft.
        let sheet = window.presented(over: "inbox")
        sheet.wrappedValue = ScreenEntry(Mail.ComposeScreen())
        let compose = try #require(sheet.wrappedValue)
        let draft = try #require(window.state(of: Mail.ComposeScreen.self, at: compose.reference))
        draft.wrappedValue.to = "ada@example.com"
        draft.wrappedValue.body = "Half a sen"
        window.selectedTab(in: "tabs").wrappedValue = "settings"

        // The app switcher, then the home screen: one save.
        window.handle(.inactive)
        window.handle(.background)
        await window.savesFinished()
        #expect(window.lastSaveError == nil)

        // The system ends the process; the window comes back as the user left it.
        let relaunchedScenes = RestorationScenes(screens: Mail.MailScreens.declaration, store: store)
        let relaunched = try makeWindow(relaunchedScenes, "window-1")
        try await relaunched.launch()
        #expect(relaunched.tree == window.tree)
        #expect(relaunched.selectedTab(in: "tabs").wrappedValue == "settings")
        #expect(relaunched.path(of: "inbox").wrappedValue.map(\.typeKey) == ["thread"])
        let restoredCompose = try #require(relaunched.presented(over: "inbox").wrappedValue)
        #expect(
            relaunched.state(of: Mail.ComposeScreen.self, at: restoredCompose.reference)?.wrappedValue.body
                == "Half a sen")
        #expect(relaunched.tree.screen(Mail.MailboxScreen.self, at: "mailbox#0")?.mail != nil)  // restored, prepared

        // Swiping the sheet down dismisses it.
        relaunched.presented(over: "inbox").wrappedValue = nil
        #expect(relaunched.tree["inbox"]?.presented == nil)
    }

    @Test func aWindowThatConnectsLaterKeepsTheLiveAccount() async throws {
        let store = InMemoryStore()
        let earlier = RestorationScenes(screens: Mail.MailScreens.declaration, store: store)
        let earlierAccount = Mail.Account()
        earlier.register(earlierAccount, identifier: "account")
        let earlierWindow = try makeWindow(earlier, "left")
        try await earlierWindow.launch()
        earlierAccount.currentSignature = "Ada"
        earlierWindow.handle(.background)
        await earlierWindow.savesFinished()

        // The next process: one window restores the account, the user changes it, a second window connects.
        let scenes = RestorationScenes(screens: Mail.MailScreens.declaration, store: store)
        let account = Mail.Account()
        scenes.register(account, identifier: "account")
        let left = try makeWindow(scenes, "left")
        try await left.launch()
        #expect(account.currentSignature == "Ada")
        account.currentSignature = "Ada, sent from the train"
        let right = try makeWindow(scenes, "right")
        try await right.launch()
        #expect(account.currentSignature == "Ada, sent from the train")
    }

    @Test func twoWindowsRestoreIndependently() async throws {
        let store = InMemoryStore()
        let scenes = RestorationScenes(screens: Mail.MailScreens.declaration, store: store)
        let left = try makeWindow(scenes, "left")
        let right = try makeWindow(scenes, "right")
        try await left.launch()
        try await right.launch()
        left.path(of: "inbox").wrappedValue = [ScreenEntry(Mail.ThreadScreen(state: .init(threadID: "t-1")))]
        right.selectedTab(in: "tabs").wrappedValue = "settings"
        left.handle(.background)
        right.handle(.background)
        await left.savesFinished()
        await right.savesFinished()

        let relaunchedScenes = RestorationScenes(screens: Mail.MailScreens.declaration, store: store)
        let leftAgain = try makeWindow(relaunchedScenes, "left")
        let rightAgain = try makeWindow(relaunchedScenes, "right")
        try await leftAgain.launch()
        try await rightAgain.launch()
        #expect(leftAgain.tree == left.tree)
        #expect(rightAgain.tree == right.tree)
        #expect(try relaunchedScenes.savedScenes() == ["left", "right"])

        // The system discards the right window's scene: its archive goes, the left one's stays.
        try await relaunchedScenes.discardScene("right")
        #expect(try relaunchedScenes.savedScenes() == ["left"])
    }
}
