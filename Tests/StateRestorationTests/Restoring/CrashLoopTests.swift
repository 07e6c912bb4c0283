import Foundation
import Synchronization
import StateRestoration
import TestScreens
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a child process dies while restoring.
enum CrashPoint: String, Codable, Sendable, CaseIterable {
    /// The delegate crashes while making a screen (re-creation and decode).
    case makingScreen
    /// An async restoration extension crashes.
    case inExtension
    /// The process is killed with SIGKILL during an async extension.
    case killedInExtension
}

#if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
    extension CrashPoint {
        /// How the child ends: by the SIGKILL it sends itself, or by a crash (a trap, whose signal
        /// differs between platforms).
        var exit: ExitTest.Condition { self == .killedInExtension ? .signal(SIGKILL) : .failure }
    }
#endif

/// A delegate that dies at one point of the restoration.
private struct DyingDelegate: RestorationDelegate {
    let point: CrashPoint

    func screen(forIdentifierPath path: IdentifierPath, request: ScreenRequest) async -> (any RestorableScreen)? {
        if point == .makingScreen && path == "tabs/browse/product#2" { fatalError("crash while making \(path)") }
        return request.makeScreen()
    }

    func didDecodeRestorableState(_ state: NoAppState?, context: RestorationContext) async {
        let point = point
        context.extendRestoration("log in") {
            switch point {
            case .inExtension: fatalError("crash in an extension")
            case .killedInExtension: kill(getpid(), SIGKILL)
            case .makingScreen: break
            }
        }
    }
}

@Suite struct CrashLoopTests {
    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
        @Test(
            "a process that dies while restoring makes the next launch start fresh and keep the archive aside",
            arguments: CrashPoint.allCases)
        func crashDuringRestoration(_ point: CrashPoint) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let tree = try Shop.busyTree()
            try await RestorationCoordinator(screens: Shop.declaration(), store: FileStore(directory: directory.url))
                .save(tree)

            let path = directory.url.path
            await #expect(processExitsWith: point.exit) { [path = path as String, point = point as CrashPoint] in
                let coordinator = RestorationCoordinator(
                    screens: Shop.declaration(), store: FileStore(directory: URL(fileURLWithPath: path)),
                    delegate: DyingDelegate(point: point))
                _ = try await coordinator.launch()
            }

            let store = FileStore(directory: directory.url)
            let coordinator = RestorationCoordinator(screens: Shop.declaration(), store: store)
            let session = try await coordinator.launch()
            #expect(session.report.outcome == .fresh)
            #expect(session.report.freshReason?.code == .crashedDuringRestoration)
            let rejected = try #require(session.report.rejectedArchive)
            #expect(rejected.contains("crashed-during-restoration"))
            #expect(FileManager.default.fileExists(atPath: rejected))
            #expect(try store.rejectedArchives(for: .main) == [rejected])

            // The next save and launch work normally again.
            try await coordinator.save(try Shop.busyTree())
            let relaunched = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
            #expect(relaunched.report.outcome == .restored)
            #expect(relaunched.tree == tree)
        }

        @Test("the debugging option restores the archive even after a launch died restoring it")
        func restoresAfterCrashWhenAsked() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let tree = try Shop.busyTree()
            try await RestorationCoordinator(screens: Shop.declaration(), store: FileStore(directory: directory.url))
                .save(tree)
            let path = directory.url.path
            await #expect(processExitsWith: .failure) { [path = path as String] in
                _ = try await RestorationCoordinator(
                    screens: Shop.declaration(), store: FileStore(directory: URL(fileURLWithPath: path)),
                    delegate: DyingDelegate(point: .inExtension)
                ).launch()
            }
            let session = try await RestorationCoordinator(
                screens: Shop.declaration(), store: FileStore(directory: directory.url),
                configuration: RestorationConfiguration(restoresAfterCrash: true)
            ).launch()
            #expect(session.report.outcome == .restored)
            #expect(session.tree == tree)
            #expect(session.report.notes.contains { $0.contains("restoresAfterCrash") })
        }
    #endif

    @Test("a launch that completes leaves no marker behind, so the next launch restores")
    func completedLaunchClearsMarker() async throws {
        let store = InMemoryStore()
        let tree = try Shop.busyTree()
        try await RestorationCoordinator(screens: Shop.declaration(), store: store).save(tree)
        for _ in 0..<3 {
            let session = try await RestorationCoordinator(screens: Shop.declaration(), store: store).launch()
            #expect(session.report.outcome == .restored)
            #expect(session.tree == tree)
        }
        #expect(try store.keys() == [.main])
    }

    /// Records the store's keys while the launch restores.
    private struct KeyWatcher: RestorationDelegate {
        final class Seen: Sendable {
            let keys = Mutex<[StoreKey]>([])
        }
        let store: InMemoryStore
        let key: StoreKey
        let seen = Seen()
        /// Records the archive's key and its marker's, as the store holds them mid-launch.
        func didDecodeRestorableState(_ state: Int?, context: RestorationContext) async {
            let keys = [key, .marker(key)].filter { (try? store.read($0)) != nil }
            seen.keys.withLock { $0 = keys }
        }
        func willEncodeRestorableState() async -> Int? { nil }
    }

    @Test(
        "an archive key too long for <key>.restoring still gets a marker, so a launch that died restoring it is not repeated",
        arguments: [
            String(repeating: "k", count: 100), "scene-" + String(repeating: "w", count: 94),
            String(repeating: "y", count: 64) + ".rejected" + String(repeating: "z", count: 27),
        ])
    func longKeysKeepProtection(rawKey: String) async throws {
        let key = try StoreKey.validated(rawKey)
        let store = InMemoryStore()
        let tree = try Shop.busyTree()
        let configuration = RestorationConfiguration(storeKey: key)
        try await RestorationCoordinator(screens: Shop.declaration(), store: store, configuration: configuration)
            .save(tree)

        let watcher = KeyWatcher(store: store, key: key)
        let first = try await RestorationCoordinator(
            screens: Shop.declaration(), store: store, delegate: watcher, configuration: configuration
        ).launch()
        #expect(first.report.outcome == .restored)
        #expect(!first.report.notes.contains { $0.contains("crash-loop protection is off") })
        let markers = watcher.seen.keys.withLock { $0 }.filter { $0 != key }
        #expect(markers.count == 1)
        #expect(markers.first?.rawValue.hasSuffix(".restoring") == true)
        #expect(try store.keys() == [key])

        // As if the launch had died while restoring: the marker it wrote is still there.
        let marker = try #require(markers.first)
        try store.write(Data("restoring".utf8), to: marker)
        let second = try await RestorationCoordinator(
            screens: Shop.declaration(), store: store, configuration: configuration
        ).launch()
        #expect(second.report.freshReason?.code == .crashedDuringRestoration)
    }
}
