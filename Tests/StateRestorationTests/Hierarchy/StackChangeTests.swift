import StateRestoration
import TestScreens
import Testing

@Suite struct StackChangeTests {
    /// A step written with letters, each letter a screen: `r` the root, `a`…`f` pushed.
    enum Step: Sendable, CustomStringConvertible {
        case push(String)
        case popTo(Character)
        case set(String)

        var description: String {
            switch self {
            case .push(let screens): "push \(screens)"
            case .popTo(let screen): "popTo \(screen)"
            case .set(let screens): "set \(screens.isEmpty ? "[]" : screens)"
            }
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var old: String
        var new: String
        var expected: [Step]

        var testDescription: String {
            "\(name): \(old.isEmpty ? "[]" : old) → \(new.isEmpty ? "[]" : new) gives \(expected.isEmpty ? "nothing" : expected.map(\.description).joined(separator: ", "))"
        }
    }

    static let cases: [Case] = [
        Case(name: "no change", old: "rab", new: "rab", expected: []),
        Case(name: "push one", old: "rab", new: "rabc", expected: [.push("c")]),
        Case(name: "push several", old: "ra", new: "rabcd", expected: [.push("bcd")]),
        Case(name: "push onto the root alone", old: "r", new: "ra", expected: [.push("a")]),
        Case(name: "pop one", old: "rabc", new: "rab", expected: [.popTo("b")]),
        Case(name: "pop several to a prefix", old: "rabcd", new: "ra", expected: [.popTo("a")]),
        Case(name: "pop to the root", old: "rabc", new: "r", expected: [.popTo("r")]),
        Case(name: "back and open another", old: "rabc", new: "rabd", expected: [.popTo("b"), .push("d")]),
        Case(name: "back twice and open two", old: "rabcd", new: "raef", expected: [.popTo("a"), .push("ef")]),
        Case(name: "only the root kept", old: "rab", new: "rcd", expected: [.set("rcd")]),
        Case(name: "replace all", old: "rab", new: "cde", expected: [.set("cde")]),
        Case(name: "reorder", old: "rabc", new: "racb", expected: [.set("racb")]),
        Case(name: "a screen removed from under another", old: "rabc", new: "rac", expected: [.set("rac")]),
        Case(name: "first display", old: "", new: "rab", expected: [.set("rab")]),
        Case(name: "emptied", old: "ra", new: "", expected: [.set("")]),
    ]

    @Test("a stack change is the fewest push, pop-to and set steps, by identity", arguments: cases)
    func changes(_ example: Case) throws {
        let ids = try Self.identities()
        func list(_ screens: String) -> [ScreenNode.ID] { screens.compactMap { ids[$0] } }
        let expected: [StackChange] = example.expected.map { step in
            switch step {
            case .push(let screens): .push(list(screens))
            case .popTo(let screen): .popTo(list(String(screen))[0])
            case .set(let screens): .set(list(screens))
            }
        }
        #expect(StackChange.changes(from: list(example.old), to: list(example.new)) == expected)
    }

    @Test("editing a screen's state keeps its identity, so its stack has no change")
    func stateEditIsNoChange() throws {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        let before = try #require(tree["browse"]).children.map(\.id)
        let stackBefore = try #require(tree["browse"])
        try tree.update(ProductScreen.self, at: "product#1") { $0.state.quantity = 7 }
        try tree.update(SearchScreen.self, at: "search#0") { $0.state.query = "oat" }
        let stackAfter = try #require(tree["browse"])
        #expect(stackAfter != stackBefore)
        #expect(StackChange.changes(from: before, to: stackAfter.children.map(\.id)) == [])
    }

    @Test("popping a screen and pushing an equal one is a new screen: pop to the kept one, then push")
    func equalScreenPushedAgainIsNew() throws {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        try tree.push(ProductScreen("p-2"), onto: "browse")
        let before = try #require(tree["browse"])
        try tree.pop(from: "browse")
        try tree.push(ProductScreen("p-2"), onto: "browse")
        let after = try #require(tree["browse"])
        #expect(after == before)
        #expect(
            StackChange.changes(from: before.children.map(\.id), to: after.children.map(\.id)) == [
                .popTo(after.children[1].id), .push([after.children[2].id]),
            ])
    }

    /// Distinct identities named by letter, taken from the screens of a stack.
    static func identities() throws -> [Character: ScreenNode.ID] {
        var tree = try Shop.declaration().makeInitialTree()
        for index in 1...6 { try tree.push(ProductScreen("p-\(index)"), onto: "browse") }
        let ids = try #require(tree["browse"]).children.map(\.id)
        return Dictionary(uniqueKeysWithValues: zip("rabcdef", ids))
    }
}
