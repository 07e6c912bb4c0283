import StateRestoration
import TestScreens
import Testing

@Suite struct ScreenTreeEntryTests {
    @Test("nodes lists every node in tree order with its identifier path, display path and identity")
    func nodesInTreeOrder() throws {
        let tree = try Shop.busyTree()
        let entries = tree.nodes
        #expect(
            entries.map(\.displayPath.description) == [
                "tabs",
                "tabs/browse", "tabs/browse/search#0", "tabs/browse/product#1", "tabs/browse/product#2",
                "tabs/browse/product#2/compose", "tabs/browse/review#3",
                "tabs/settings", "tabs/draft",
                "tabs/split", "tabs/split/mailbox", "tabs/split/message",
                "tabs/<scratch>",
            ])
        #expect(
            entries.map(\.path) == entries.map { $0.displayPath.description == "tabs/<scratch>" ? nil : $0.displayPath }
        )
        #expect(Set(entries.map(\.id)).count == entries.count)
        for entry in entries {
            #expect(entry.id == entry.node.id)
            #expect(tree[NodeReference(entry.displayPath)]?.id == entry.id)
        }
        let compose = try #require(entries.first { $0.displayPath == "tabs/browse/product#2/compose" })
        #expect(compose.node.screen is ComposeScreen)
    }

    @Test("an entry keeps its identity when the node's state changes, and a node pushed later is a new one")
    func entriesFollowIdentity() throws {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        let before = try #require(tree.nodes.first { $0.path == "tabs/browse/product#1" })
        try tree.update(ProductScreen.self, at: "product#1") { $0.state.quantity = 5 }
        let edited = try #require(tree.nodes.first { $0.path == "tabs/browse/product#1" })
        #expect(edited.id == before.id)
        #expect(edited != before)
        try tree.pop(from: "browse")
        try tree.push(ProductScreen("p-1"), onto: "browse")
        let pushed = try #require(tree.nodes.first { $0.path == "tabs/browse/product#1" })
        #expect(pushed.id != before.id)
        #expect(pushed == before)
    }
}
