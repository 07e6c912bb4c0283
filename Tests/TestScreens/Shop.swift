import Foundation
public import StateRestoration

/// The shop app that the screens make up.
public enum Shop {
    /// The shop's declaration: tabs with a browsing stack (products and reviews
    /// pushed, a compose sheet presented over products), settings, an optional
    /// draft tab, a custom split container, and a scratch tab that is never saved.
    ///
    /// - Parameter drafts: Whether the draft tab is declared.
    /// - Returns: The declaration.
    public static func declaration(drafts: Bool = true) -> ScreenDeclaration {
        ScreenDeclaration {
            Tabs("tabs", selected: "browse") {
                Stack("browse", root: SearchScreen()) {
                    Screen(ProductScreen.self, id: "product")
                        .presents { Screen(ComposeScreen.self, id: "compose") }
                    Screen(ReviewScreen.self, id: "review")
                }
                Screen(SettingsScreen(), id: "settings")
                if drafts {
                    Screen(DraftScreen(), id: "draft")
                }
                Container(SplitScreen(), id: "split") {
                    Screen(MailboxScreen.self, id: "mailbox")
                    Screen(MessageScreen.self, id: "message")
                }
                Screen(ScratchScreen())
            }
        }
    }

    /// A hierarchy a user left: a search, two products pushed, a review, a
    /// compose sheet over the second product, a split with two panes, the split
    /// tab selected.
    ///
    /// - Parameter declaration: The declaration the tree is made with.
    /// - Returns: The tree.
    /// - Throws: The error of a step the declaration has no place for.
    public static func busyTree(_ declaration: ScreenDeclaration = Shop.declaration()) throws -> ScreenTree {
        var tree = try declaration.makeInitialTree()
        try tree.update(SearchScreen.self, at: "tabs/browse/search#0") {
            $0.state.query = "milk"
            $0.state.filters = ["organic", "1l"]
            $0.state.scrollOffset = 412.5
        }
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.push(ProductScreen("p-2", quantity: 3), onto: "browse")
        try tree.push(ReviewScreen(state: .init(productID: "p-2", rating: 4, draft: "Creamy")), onto: "browse")
        try tree.present(
            ComposeScreen(state: .init(to: "shop@example.com", body: "Is it lactose", focusedField: "body")),
            over: "tabs/browse/product#2")
        try tree.update(SettingsScreen.self, at: "settings") { $0.state.region = "jp" }
        try tree.update(DraftScreen.self, at: "draft") { $0.state.text = "half-written" }
        try tree.addChild(MailboxScreen(state: .init(folder: "archive")), to: "split")
        try tree.addChild(
            MessageScreen(
                state: .init(
                    messageID: UUID(
                        uuid: (
                            0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E,
                            0x5F
                        )))),
            to: "split")
        try tree.selectTab("split", in: "tabs")
        return tree
    }
}
