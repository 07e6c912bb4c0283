import Foundation
import StateRestoration
import TestScreens
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

@Suite struct RestorationMetadataTests {
    @Test("values are set, read as their type, replaced and removed by key")
    func setReadRemove() throws {
        var metadata = RestorationMetadata()
        try metadata.set("2.4.1", forKey: "bundle-version")
        try metadata.set([3, 1], forKey: "order")
        #expect(metadata.keys == ["bundle-version", "order"])
        #expect(metadata.value(String.self, forKey: "bundle-version") == "2.4.1")
        #expect(metadata.value([Int].self, forKey: "order") == [3, 1])
        // A value read as another type is nil, not a crash.
        #expect(metadata.value(Date.self, forKey: "bundle-version") == nil)

        try metadata.set("2.5", forKey: "bundle-version")
        #expect(metadata.value(String.self, forKey: "bundle-version") == "2.5")
        metadata.removeValue(forKey: "bundle-version")
        #expect(metadata.keys == ["order"])
        #expect(metadata.value(String.self, forKey: "bundle-version") == nil)
        metadata.removeValue(forKey: "never-set")
        #expect(metadata.keys == ["order"])
    }

    @Test("a removed value is not in the next archive")
    func removedValueIsNotSaved() async throws {
        struct RemovingDelegate: RestorationDelegate {
            func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool {
                try? metadata.set("draft", forKey: "channel")
                try? metadata.set("kept", forKey: "build")
                metadata.removeValue(forKey: "channel")
                return true
            }
        }
        let store = InMemoryStore()
        let declaration = ScreenDeclaration { Screen(SettingsScreen(), id: "settings") }
        try await RestorationCoordinator(screens: declaration, store: store, delegate: RemovingDelegate())
            .save(try declaration.makeInitialTree())
        let info = try #require(await RestorationCoordinator(screens: declaration, store: store).savedArchiveInfo())
        #expect(info.metadata.keys == ["build"])
        #expect(info.metadata.value(String.self, forKey: "build") == "kept")
    }
}
