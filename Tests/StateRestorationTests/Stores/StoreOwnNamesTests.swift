import Foundation
import StateRestoration
import Synchronization
import TestScreens
import Testing

/// Delegate that, inside did-decode (the restoration marker is written), lists the store's
/// directory: every file the store and the coordinator keep there mid-launch.
private final class ListingDelegate: RestorationDelegate {
    let directory: URL
    let names = NamesBox()

    init(directory: URL) { self.directory = directory }

    func didDecodeRestorableState(_ state: NoAppState?, context: RestorationContext) async {
        names.add((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
    }
}

/// File names seen, shared between a delegate and the test.
private final class NamesBox: Sendable {
    private let names = Mutex<Set<String>>([])
    func add(_ more: [String]) { names.withLock { $0.formUnion(more) } }
    var all: Set<String> { names.withLock { $0 } }
}

/// The names a store and a coordinator give their own files never name a key's archive: a
/// window's marker, temporary file or rejected copy is never another window's archive.
@Suite struct StoreOwnNamesTests {
    /// Keys at the edges of the rules: short, dotted, and around the length where a marker's
    /// key changes form (89, 90 and 100 characters).
    static let keys: [StoreKey] =
        ["main", "win-a", "win-a.restorin", "a.restoration", "scene-x.rejected", "shared"]
        + [
            String(repeating: "k", count: 89), String(repeating: "k", count: 90),
            String(repeating: "k", count: 89) + "_",
            String(repeating: "k", count: 100), String(repeating: "k", count: 99) + "j",
        ]
        .compactMap(StoreKey.init(rawValue:))

    @Test("a key ending in .restoring, which names a crash marker, is refused with a one-line reason")
    func markerNamesAreNotKeys() throws {
        #expect(StoreKey(rawValue: "win-a.restoring") == nil)
        let error = try #require(throws: StoreError.self) { try StoreKey.validated("win-a.restoring") }
        #expect(error.code == .invalidKey)
        #expect("\(error)".contains("ends in \".restoring\""))
        #expect(!"\(error)".contains("\n"))
        #expect(StoreKey(rawValue: "win-a.restoring-2") != nil)  // only the end is reserved
        #expect(throws: RestorationError.self) {
            try RestorationScenes<DefaultRestorationDelegate>.storeKey(for: "left.restoring")
        }
    }

    @Test(
        "every file a store and a coordinator keep beside the archives, mid-launch and after a rejection, is one no key names"
    )
    func ownFilesAgainstTheKeyRules() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let store = FileStore(directory: directory.url)
        for key in Self.keys {
            try await RestorationCoordinator(
                screens: Shop.declaration(), store: store, configuration: RestorationConfiguration(storeKey: key)
            ).save(try Shop.busyTree())
        }
        // Each key's launch, stopped inside did-decode: its marker is on disk then.
        let seen = NamesBox()
        for key in Self.keys {
            let delegate = ListingDelegate(directory: directory.url)
            _ = try await RestorationCoordinator(
                screens: Shop.declaration(), store: store, delegate: delegate,
                configuration: RestorationConfiguration(storeKey: key)
            ).launch()
            seen.add(Array(delegate.names.all))
        }
        // A rejected copy, and what a save leaves on disk.
        try store.write(Data("not an archive".utf8), to: "damaged")
        _ = try await RestorationCoordinator(
            screens: Shop.declaration(), store: store, configuration: RestorationConfiguration(storeKey: "damaged")
        ).launch()
        seen.add(try FileManager.default.contentsOfDirectory(atPath: directory.url.path))

        #expect(Self.keys.count == 11)
        let archives = Set(Self.keys.map { "\($0.rawValue).restoration" })
        let own = seen.all.subtracting(archives)
        // One marker per key was seen (no two keys share one), and the rejected copy.
        #expect(own.count(where: { $0.hasSuffix(".restoring.restoration") }) == Self.keys.count)
        #expect(own.contains { $0.hasPrefix("damaged.rejected-") })
        for name in own {
            // A key's archive is "<key>.restoration": no valid key spells this name that way.
            let spelled = name.hasSuffix(".restoration") ? String(name.dropLast(".restoration".count)) : nil
            #expect(spelled.flatMap(StoreKey.init(rawValue:)) == nil, "\(name) is the archive of a valid key")
        }
        #expect(try store.keys() == Self.keys.sorted())
    }
}
