import StateRestoration
import Testing

/// Types an app names its screens with, where `String(describing:)` gives the
/// unqualified name only.
private enum Catalog {
    struct DetailScreen {}
}
private enum Orders {
    struct DetailScreen {}
}
private struct Wrapper<Content> {}

@Suite struct ScreenTypeKeyTests {
    @Test("a type's default key is its unqualified name, so two nested types of one name share it")
    func typeNameKeys() {
        #expect(ScreenTypeKey(typeName: Catalog.DetailScreen.self) == "DetailScreen")
        // The reason to give screens explicit keys: a declaration with both is refused.
        #expect(ScreenTypeKey(typeName: Catalog.DetailScreen.self) == ScreenTypeKey(typeName: Orders.DetailScreen.self))
        #expect(ScreenTypeKey(typeName: Wrapper<Int>.self).rawValue == "Wrapper<Int>")
        #expect(ScreenTypeKey("search") == ScreenTypeKey(rawValue: "search"))
    }

    @Test("keys order by their text")
    func ordering() {
        let keys: [ScreenTypeKey] = ["search", "product", "Settings", "compose"]
        #expect(keys.sorted().map(\.rawValue) == ["Settings", "compose", "product", "search"])
        #expect(ScreenTypeKey("a") < ScreenTypeKey("b"))
        #expect(!(ScreenTypeKey("b") < ScreenTypeKey("b")))
    }

    @Test("two screen types with one default key are a declaration error, not a mix-up at restore")
    func collidingDefaultKeys() {
        struct First: RestorableScreen {
            struct State: Codable, Sendable, Equatable {}
            var state = State()
        }
        enum Other {
            struct First: RestorableScreen {
                struct State: Codable, Sendable, Equatable { var value = 1 }
                var state = State()
            }
        }
        #expect(First.typeKey == Other.First.typeKey)
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                Screen(First(), id: "one")
                Screen(Other.First(), id: "two")
            }
        }
        let error = #expect(throws: DeclarationError.self) { try declaration.makeInitialTree() }
        #expect(error?.description.contains("First") == true)
    }
}
