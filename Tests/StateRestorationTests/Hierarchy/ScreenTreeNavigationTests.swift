import StateRestoration
import TestScreens
import Testing

@Suite struct ScreenTreeNavigationTests {
    /// The shop with search#0, product#1, product#2 and review#3 on its browse stack.
    static func deepTree() throws -> (tree: ScreenTree, ids: [ScreenNode.ID]) {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.push(ProductScreen("p-2"), onto: "browse")
        try tree.push(ReviewScreen(state: .init(productID: "p-2", rating: 4, draft: "")), onto: "browse")
        return (tree, try #require(tree["browse"]).children.map(\.id))
    }

    static func stackPaths(_ tree: ScreenTree) -> [String] {
        tree.nodes.compactMap { entry in
            let components = entry.displayPath.components
            return components.count == 3 && components[1] == "browse" ? components[2] : nil
        }
    }

    @Test("pop(to:) by identity keeps that screen on top and returns the popped ones, bottom first")
    func popToIdentity() throws {
        var (tree, ids) = try Self.deepTree()
        let popped = try tree.pop(to: ids[1], in: "browse")
        #expect(popped.map(\.id) == [ids[2], ids[3]])
        #expect(Self.stackPaths(tree) == ["search#0", "product#1"])
        #expect(try tree.pop(to: ids[1], in: "browse").isEmpty)
        try tree.pop(to: ids[0], in: "tabs/browse")
        #expect(Self.stackPaths(tree) == ["search#0"])
    }

    @Test("pop(to:) refuses a screen not on the stack, naming the stack, and leaves the tree alone")
    func popToUnknownIdentity() throws {
        var (tree, ids) = try Self.deepTree()
        let settings = try #require(tree["settings"]).id
        let original = tree
        #expect { try tree.pop(to: settings, in: "browse") } throws: { error in
            let error = try #require(error as? HierarchyError)
            return error.code == .notFound && error.reference == "tabs/browse"
                && error.message == "cannot pop tabs/browse to \(settings): it is not on that stack"
        }
        #expect(tree == original)
        #expect(try #require(tree["browse"]).children.map(\.id) == ids)
        try tree.pop(to: ids[1], in: "browse")
        #expect { try tree.pop(to: ids[2], in: "browse") } throws: { error in
            (error as? HierarchyError)?.code == .notFound
        }
        #expect { try tree.pop(to: ids[0], in: "settings") } throws: { error in
            (error as? HierarchyError)?.message == "cannot pop tabs/settings: it is a screen, not a stack"
        }
    }

    @Test("pop(toPosition:) keeps the screens up to that position; a position off the stack is refused")
    func popToPosition() throws {
        var (tree, ids) = try Self.deepTree()
        let original = tree
        #expect { try tree.pop(toPosition: 4, in: "browse") } throws: { error in
            let error = try #require(error as? HierarchyError)
            return error.code == .notFound
                && error.message
                    == "cannot pop tabs/browse to position 4: it holds 4 screens, at positions 0 to 3"
        }
        #expect { try tree.pop(toPosition: -1, in: "browse") } throws: { error in
            (error as? HierarchyError)?.code == .notFound
        }
        #expect(tree == original)
        let popped = try tree.pop(toPosition: 2, in: "browse")
        #expect(popped.map(\.id) == [ids[3]])
        try tree.pop(toPosition: 0, in: "browse")
        #expect(Self.stackPaths(tree) == ["search#0"])
    }

    @Test("setScreens accepts the stack's bottom screens, as a back swipe or a pop to any level reports them")
    func setScreensToPrefix() throws {
        var (tree, ids) = try Self.deepTree()
        #expect(try tree.setScreens(ids, of: "browse").isEmpty)
        let popped = try tree.setScreens(Array(ids.prefix(2)), of: "browse")
        #expect(popped.map(\.id) == [ids[2], ids[3]])
        #expect(Self.stackPaths(tree) == ["search#0", "product#1"])
        try tree.setScreens([ids[0]], of: "tabs/browse")
        #expect(try #require(tree["browse"]).children.map(\.id) == [ids[0]])
    }

    @Test(
        "setScreens refuses what the UI cannot do: no screens, an unknown screen, a reordering, a skip",
        arguments: [
            ([], HierarchyError.Code.cannotPopRoot, "cannot set the screens of tabs/browse to none: its root stays"),
            ([0, 1, 9], .notFound, "cannot set the screens of tabs/browse: {9} is not on that stack"),
            (
                [0, 2, 1], .notAPrefix,
                "cannot set the screens of tabs/browse: {2} is at position 2, not 1; only screens at the top can be removed"
            ),
            (
                [0, 2], .notAPrefix,
                "cannot set the screens of tabs/browse: {2} is at position 2, not 1; only screens at the top can be removed"
            ),
            (
                [0, 0], .notAPrefix,
                "cannot set the screens of tabs/browse: {0} is at position 0, not 1; only screens at the top can be removed"
            ),
        ] as [([Int], HierarchyError.Code, String)])
    func setScreensRefusals(positions: [Int], code: HierarchyError.Code, message: String) throws {
        var (tree, ids) = try Self.deepTree()
        // Position 9 stands for a node of the tree that is not on the stack.
        let settings = try #require(tree["settings"]).id
        let id = { (position: Int) in position < ids.count ? ids[position] : settings }
        let original = tree
        var expected = message
        for position in Set(positions) { expected = expected.replacing("{\(position)}", with: "\(id(position))") }
        #expect { try tree.setScreens(positions.map(id), of: "browse") } throws: { error in
            let error = try #require(error as? HierarchyError)
            return error.code == code && error.reference == "tabs/browse" && error.message == expected
        }
        #expect(tree == original)
        #expect(try #require(tree["browse"]).children.map(\.id) == ids)
    }
}
