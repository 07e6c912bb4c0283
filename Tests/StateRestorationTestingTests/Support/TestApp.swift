import Foundation
import StateRestoration
import StateRestorationTesting
import Synchronization

/// A search screen with a property outside its state, which must not survive a relaunch.
struct SearchScreen: RestorableScreen, RestorationSampling {
    static let typeKey: ScreenTypeKey = "search"
    struct State: Codable, Sendable, Equatable {
        var query = ""
        var scrollOffset = 0.0
    }
    var state = State()
    /// Results the live screen holds in memory; never saved.
    var cachedResults: [String]?

    init(state: State = State()) { self.state = state }

    static var restorationSamples: [SearchScreen] {
        [SearchScreen(), SearchScreen(state: .init(query: "café ☕️ \u{0}", scrollOffset: -1e300))]
    }
}

struct ProductScreen: RestorableScreen, RestorationSampling {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var quantity = 1
        var viewedAt: Date?
    }
    var state: State

    init(state: State) { self.state = state }

    static var restorationSamples: [ProductScreen] {
        [
            ProductScreen(state: .init(productID: "p-1")),
            ProductScreen(state: .init(productID: "", quantity: .max, viewedAt: Date(timeIntervalSince1970: 1e9))),
        ]
    }
}

struct ComposeScreen: RestorableScreen, RestorationSampling {
    static let typeKey: ScreenTypeKey = "compose"
    struct State: Codable, Sendable, Equatable {
        var to = ""
        var body = ""
    }
    var state = State()

    init(state: State = State()) { self.state = state }

    static var restorationSamples: [ComposeScreen] {
        [ComposeScreen(state: .init(to: "a@b.c", body: "line 1\nline 2"))]
    }
}

struct SettingsScreen: RestorableScreen, RestorationSampling {
    static let typeKey: ScreenTypeKey = "settings"
    struct State: Codable, Sendable, Equatable { var region = "eu" }
    var state = State()

    init(state: State = State()) { self.state = state }

    static var restorationSamples: [SettingsScreen] { [SettingsScreen(state: .init(region: "jp"))] }
}

struct SplitScreen: RestorableContainer, RestorationSampling {
    static let typeKey: ScreenTypeKey = "split"
    struct State: Codable, Sendable, Equatable { var ratio = 0.4 }
    var state = State()

    init(state: State = State()) { self.state = state }

    static var restorationSamples: [SplitScreen] { [SplitScreen(state: .init(ratio: 0.75))] }
}

struct NoteScreen: RestorableScreen, RestorationSampling {
    static let typeKey: ScreenTypeKey = "note"
    struct State: Codable, Sendable, Equatable { var text: String }
    var state: State

    init(state: State) { self.state = state }

    static var restorationSamples: [NoteScreen] { [NoteScreen(state: .init(text: "pinned"))] }
}

enum TestApp {
    /// Tabs with a browsing stack (products pushed, compose presented over a
    /// product), settings, and a split container with notes.
    static let declaration = ScreenDeclaration {
        Tabs("tabs", selected: "browse") {
            Stack("browse", root: SearchScreen()) {
                Screen(ProductScreen.self, id: "product")
                    .presents { Screen(ComposeScreen.self, id: "compose") }
            }
            Screen(SettingsScreen(), id: "settings")
            Container(SplitScreen(), id: "split") {
                Screen(NoteScreen.self, id: "note")
            }
        }
    }

    /// A hierarchy a user left, with something everywhere.
    static func busyTree() throws -> ScreenTree {
        var tree = try declaration.makeInitialTree()
        try tree.update(SearchScreen.self, at: "search#0") { $0.state = .init(query: "milk", scrollOffset: 412.5) }
        try tree.push(ProductScreen(state: .init(productID: "p-1")), onto: "browse")
        try tree.push(ProductScreen(state: .init(productID: "p-2", quantity: 3)), onto: "browse")
        try tree.present(ComposeScreen(state: .init(to: "shop@example.com", body: "Is it")), over: "product#2")
        try tree.update(SettingsScreen.self, at: "settings") { $0.state.region = "jp" }
        try tree.addChild(NoteScreen(state: .init(text: "buy oat milk")), to: "split")
        try tree.selectTab("split", in: "tabs")
        return tree
    }
}

/// Collects strings from any task, in order; for observing what tests cannot return.
final class Probe: Sendable {
    private let events = Mutex<[String]>([])

    func record(_ event: String) { events.withLock { $0.append(event) } }

    var recorded: [String] { events.withLock { $0 } }
}

/// Yields until `condition` holds, giving up (false) after many tries instead of hanging.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1_000_000 {
        if condition() { return true }
        await Task.yield()
    }
    return false
}
