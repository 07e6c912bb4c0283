import StateRestoration
import TestScreens

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

/// Yields until `condition` holds, giving up (false) after many tries instead of hanging.
func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<1_000_000 {
        if condition() { return true }
        await Task.yield()
    }
    return false
}
