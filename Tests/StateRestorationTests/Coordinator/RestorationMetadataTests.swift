import Foundation
import StateRestoration
import TestScreens
import Testing

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
