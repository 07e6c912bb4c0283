import Foundation
import StateRestoration
import Synchronization
import Testing

/// The golden archives in `Tests/StateRestorationTests/Fixtures/`: restoration archives written
/// by this format version, each beside a `.txt` that describes what it holds. Every later build
/// must restore them exactly; a format change that cannot read them is a format version bump with
/// a migration path, never an edit of these files.
///
/// Each archive is launched through a real coordinator and must give back exactly the values it
/// was saved from (``Golden``). Then those values, and the launched ones, are saved again on a
/// coordinator whose clock is the archive's save date: both saves must write the archive's bytes,
/// all of them, header and checksum included. Nothing needs excluding: the save date is the only
/// value a save takes from outside what it saves, and the clock pins it; the values hold no
/// dictionary of more than one entry, whose order a process does not keep from one run to the
/// next. So the encoder must keep writing today's bytes for today's values.
///
/// To write the archives again (only for a new golden archive, or after a format version bump
/// that keeps the old ones beside the new):
///
/// ```sh
/// STATE_RESTORATION_WRITE_GOLDEN_ARCHIVES=1 swift test --filter GoldenArchiveTests
/// ```
///
/// writes every `.restoration` and `.txt` into the source tree's `Fixtures/` folder; the next
/// build copies them into the test bundle.
@Suite struct GoldenArchiveTests {
    /// Where the archives are read: the test bundle's copy of `Fixtures/`.
    private static func fixture(_ golden: Golden, _ fileExtension: String) throws -> Data {
        let url = try #require(
            Bundle.module.url(forResource: golden.rawValue, withExtension: fileExtension, subdirectory: "Fixtures"),
            "\(golden.rawValue).\(fileExtension) is not in the test bundle's Fixtures")
        return try Data(contentsOf: url)
    }

    /// Where the archives are written: the source tree's `Fixtures/`.
    private static let sourceFixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    private static var writesArchives: Bool {
        ProcessInfo.processInfo.environment["STATE_RESTORATION_WRITE_GOLDEN_ARCHIVES"] == "1"
    }

    /// The archive a save of `tree`, with `delegate` and `objects`, writes.
    private func save(
        _ golden: Golden, tree: ScreenTree, delegate: GoldenDelegate, objects: [String: any GoldenObject]
    ) async throws -> Data {
        let store = InMemoryStore()
        let coordinator = RestorationCoordinator(
            screens: golden.declaration, store: store, delegate: delegate, configuration: golden.configuration)
        for (identifier, object) in objects { await coordinator.register(object, identifier: identifier) }
        if golden.ignoresSnapshot { await coordinator.ignoreSnapshotOnNextLaunch() }
        let report = try await coordinator.save(tree)
        #expect(report.saved)
        return try #require(try store.read(.main))
    }

    /// The archive's description: what the launch read beside the hierarchy, then the hierarchy.
    private func describe(
        _ info: ArchiveInfo, appState: GoldenDelegate.AppState?, objects: [String: any GoldenObject],
        tree: ScreenTree
    ) -> String {
        var lines = [
            "format version: \(info.formatVersion)",
            "app version: \(info.appVersion ?? "none")",
            "saved at: \(info.savedAt) (\(info.savedAt.timeIntervalSinceReferenceDate) s after 2001)",
            "screens: \(info.screenCount)",
            "ignores snapshot: \(info.ignoresSnapshot)",
        ]
        lines += info.metadata.keys.map { "metadata \($0): \(info.metadata.value(String.self, forKey: $0) ?? "?")" }
        lines.append("app state: \(appState.map { String(describing: $0) } ?? "none")")
        lines += objects.keys.sorted().compactMap { identifier in
            objects[identifier].map { "object \(identifier) (\(type(of: $0).typeKey)): \($0.stateDescription)" }
        }
        return (lines + ["", tree.description, ""]).joined(separator: "\n")
    }

    @Test(
        "a golden archive restores exactly the values it was saved from, and saving them writes it again",
        arguments: Golden.allCases)
    func restoresExactly(golden: Golden) async throws {
        let tree = try golden.tree()
        let objects = golden.objects(saved: true)
        let delegate = try golden.savingDelegate()
        let archive: Data
        if Self.writesArchives {
            archive = try await save(golden, tree: tree, delegate: delegate, objects: objects)
            try FileManager.default.createDirectory(at: Self.sourceFixtures, withIntermediateDirectories: true)
            try archive.write(to: Self.sourceFixtures.appendingPathComponent("\(golden.rawValue).restoration"))
        } else {
            archive = try Self.fixture(golden, "restoration")
        }

        // Launch it.
        let store = InMemoryStore()
        try store.write(archive, to: .main)
        let launchDelegate = GoldenDelegate()
        let restored = golden.objects(saved: false)
        let coordinator = RestorationCoordinator(
            screens: golden.declaration, store: store, delegate: launchDelegate, configuration: golden.configuration)
        for (identifier, object) in restored { await coordinator.register(object, identifier: identifier) }
        let session = try await coordinator.launch()
        #expect(session.report.outcome == .restored, "\(session.report)")
        #expect(session.report.skipped.isEmpty)
        #expect(session.report.notes.isEmpty)
        let info = try #require(session.report.archiveInfo)

        // What it holds.
        #expect(session.tree == tree)
        #expect(info.appVersion == golden.configuration.appVersion)
        #expect(info.savedAt == Golden.savedAt)
        #expect(info.metadata == delegate.metadata)
        #expect(info.ignoresSnapshot == golden.ignoresSnapshot)
        let appState = launchDelegate.decoded.appState.withLock { $0 }
        #expect(appState == delegate.appState)
        #expect(session.report.restoredObjects.sorted() == objects.keys.sorted())
        for (identifier, object) in objects {
            #expect(restored[identifier]?.stateDescription == object.stateDescription, "object \(identifier)")
        }
        let description = describe(info, appState: appState, objects: restored, tree: session.tree)
        if Self.writesArchives {
            try Data(description.utf8).write(to: Self.sourceFixtures.appendingPathComponent("\(golden.rawValue).txt"))
        } else {
            #expect(String(decoding: try Self.fixture(golden, "txt"), as: UTF8.self) == description)
        }

        // Saved again, from the values it was written from and from the launched ones: the same bytes.
        #expect(try await save(golden, tree: tree, delegate: delegate, objects: objects) == archive)
        var relaunched = GoldenDelegate()
        relaunched.appState = appState
        relaunched.metadata = info.metadata
        #expect(try await save(golden, tree: session.tree, delegate: relaunched, objects: restored) == archive)
    }
}
