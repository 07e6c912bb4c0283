import StateRestoration
import Testing

@Suite struct IdentifierPathTests {
    @Test("a path's parent drops its last component; a one-component path has none")
    func parent() {
        let path: IdentifierPath = "tabs/browse/product#2"
        #expect(path.parent == "tabs/browse")
        #expect(path.parent?.parent == "tabs")
        #expect(path.parent?.parent?.parent == nil)
        #expect(IdentifierPath([]).parent == nil)
        #expect(path.last == "product#2")
        #expect(path.parent?.appending("product#2") == path)
    }

    @Test("a path contains itself and its descendants, compared by whole components")
    func contains() {
        let browse: IdentifierPath = "tabs/browse"
        #expect(browse.contains(browse))
        #expect(browse.contains("tabs/browse/product#1/compose"))
        #expect(!browse.contains("tabs"))
        #expect(!browse.contains("tabs/settings"))
        // A component that only starts with the same text is another node.
        #expect(!browse.contains("tabs/browser"))
        #expect(!browse.contains("tabs/browser/search#0"))
        #expect(IdentifierPath([]).contains(browse))
    }
}
