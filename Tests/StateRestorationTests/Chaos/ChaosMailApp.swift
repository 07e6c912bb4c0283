import StateRestoration

/// The mail app the chaos test drives: an inbox stack with a compose sheet, a
/// settings tab with a signature, and a desk of cards in a custom container.
enum ChaosMail {
    /// The inbox stack's root: one mailbox.
    struct MailboxScreen: RestorableScreen {
        static let typeKey: ScreenTypeKey = "mailbox"
        /// The folder shown.
        struct State: Codable, Sendable, Equatable { var folder = "inbox" }
        var state = State()
    }

    /// A thread pushed onto the inbox stack.
    struct ThreadScreen: RestorableScreen {
        static let typeKey: ScreenTypeKey = "thread"
        /// The thread shown.
        struct State: Codable, Sendable, Equatable { var threadID: String }
        var state: State
    }

    /// A message pushed onto the inbox stack.
    struct MessageScreen: RestorableScreen {
        static let typeKey: ScreenTypeKey = "message"
        /// The message shown.
        struct State: Codable, Sendable, Equatable { var messageID: String }
        var state: State
    }

    /// The compose sheet presented over the inbox stack, with its draft.
    struct ComposeScreen: RestorableScreen {
        static let typeKey: ScreenTypeKey = "compose"
        /// The draft.
        struct State: Codable, Sendable, Equatable {
            var to = ""
            var body = ""
        }
        var state = State()
    }

    /// The settings tab, with the signature being typed.
    struct SettingsScreen: RestorableScreen {
        static let typeKey: ScreenTypeKey = "settings"
        /// The signature.
        struct State: Codable, Sendable, Equatable { var signature = "" }
        var state = State()
    }

    /// The desk tab: a custom container of cards the user pins and closes.
    struct DeskScreen: RestorableContainer {
        static let typeKey: ScreenTypeKey = "desk"
        /// How many columns the cards are laid out in.
        struct State: Codable, Sendable, Equatable { var columns = 2 }
        var state = State()
    }

    /// One card on the desk.
    struct CardScreen: RestorableScreen {
        static let typeKey: ScreenTypeKey = "card"
        /// The card's note.
        struct State: Codable, Sendable, Equatable { var note: String }
        var state: State
    }

    /// The identifiers of the desk's card slots, each holding at most one card.
    static let deskSlots = ["pinned", "flagged", "later"]

    /// The tabs, in order.
    static let tabs = ["inbox", "settings", "desk"]

    /// The tab after `tab`, the first after the last.
    static func tab(after tab: String) -> String {
        tabs[((tabs.firstIndex(of: tab) ?? 0) + 1) % tabs.count]
    }

    /// The app's screens.
    static let declaration = ScreenDeclaration {
        Tabs("tabs", selected: "inbox") {
            Stack("inbox", root: MailboxScreen()) {
                Screen(ThreadScreen.self, id: "thread")
                Screen(MessageScreen.self, id: "message")
            }
            .presents { Screen(ComposeScreen.self, id: "compose") }
            Screen(SettingsScreen(), id: "settings")
            Container(DeskScreen(), id: "desk") {
                Screen(CardScreen.self, id: "pinned")
                Screen(CardScreen.self, id: "flagged")
                Screen(CardScreen.self, id: "later")
            }
        }
    }

    /// The app's delegate: a slow one yields to the main actor in each launch
    /// callback, so phases and kills land while the launch decodes.
    @MainActor
    final class Delegate: RestorationDelegate {
        /// How many times each launch callback yields.
        let yields: Int

        /// Creates a delegate whose launch callbacks each yield `yields` times.
        init(yields: Int) { self.yields = yields }

        /// Yields before the archive is read.
        func willFinishLaunching(_ context: RestorationContext) async { await pause() }

        /// Yields after the screens decoded, before the handover.
        func didDecodeRestorableState(_ state: NoAppState?, context: RestorationContext) async { await pause() }

        /// Yields just before the handover.
        func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async { await pause() }

        /// Yields `yields` times.
        private func pause() async {
            for _ in 0..<yields { await Task.yield() }
        }
    }

    /// A window's model.
    typealias Model = RestorationModel<Delegate>
}
