import Foundation
import StateRestoration
import TestScreens
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Adds a restoration extension that takes an hour: a thread that loads slowly.
private struct SlowExtensionDelegate: RestorationDelegate {
    func didDecodeRestorableState(_ state: NoAppState?, context: RestorationContext) async {
        context.extendRestoration("slow sync") { try await Task.sleep(for: .seconds(3600)) }
    }
}

/// When a child process dies after the launch handed its tree over.
enum InterfaceCrashPoint: String, Codable, CaseIterable, Sendable {
    /// While the app builds its screens from the restored tree.
    case buildingInterface
    /// After the app said its restored interface is up.
    case afterInterfaceAppeared
}

/// Real processes and a real `FileStore`: what the next launch restores after a process
/// that launched into a host dies.
@Suite struct RestoredInterfaceTests {
    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
        @Test(
            "a crash while the app builds its UI from the restored tree makes the next launch fresh; after the UI is up it does not",
            arguments: InterfaceCrashPoint.allCases)
        func crashWhileBuildingInterface(_ point: InterfaceCrashPoint) async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try await RestorationCoordinator(screens: Shop.declaration(), store: FileStore(directory: directory.url))
                .save(try Shop.busyTree())

            await #expect(processExitsWith: .failure) {
                [path = directory.url.path as String, point = point as InterfaceCrashPoint] in
                let coordinator = RestorationCoordinator(
                    screens: Shop.declaration(), store: FileStore(directory: URL(fileURLWithPath: path)))
                let host = try await TreeHost(Shop.declaration())
                try await coordinator.launch(into: host)
                if point == .afterInterfaceAppeared { await coordinator.restoredInterfaceDidAppear() }
                let shown = await host.tree
                fatalError("crash while showing \(shown.root.children.count) tabs")
            }

            let session = try await RestorationCoordinator(
                screens: Shop.declaration(), store: FileStore(directory: directory.url)
            ).launch()
            switch point {
            case .buildingInterface:
                #expect(session.report.outcome == .fresh)
                #expect(session.report.freshReason?.code == .crashedDuringRestoration)
                #expect(session.report.rejectedArchive?.contains("crashed-during-restoration") == true)
            case .afterInterfaceAppeared:
                #expect(session.report.outcome == .restored)
                #expect(session.tree == (try Shop.busyTree()))
            }
        }

        @Test("a slow extension, a save on entering the background, then SIGKILL: the relaunch restores the draft")
        func draftSurvivesSlowRestoration() async throws {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            try await RestorationCoordinator(screens: Shop.declaration(), store: FileStore(directory: directory.url))
                .save(try Shop.busyTree())

            await #expect(processExitsWith: .signal(SIGKILL)) { [path = directory.url.path as String] in
                let coordinator = RestorationCoordinator(
                    screens: Shop.declaration(), store: FileStore(directory: URL(fileURLWithPath: path)),
                    delegate: SlowExtensionDelegate(),
                    configuration: RestorationConfiguration(extensionTimeout: .seconds(7200)))
                let host = try await TreeHost(Shop.declaration())
                let launch = Task { try await coordinator.launch(into: host) }
                while !(await host.receivedTree) { await Task.yield() }
                // The user finishes the restored draft while the sync still runs, then leaves.
                try await MainActor.run {
                    try host.tree.update(DraftScreen.self, at: "draft") { $0.state.text += ", now finished" }
                }
                try await coordinator.save(host)
                kill(getpid(), SIGKILL)
                _ = try await launch.value
            }

            let session = try await RestorationCoordinator(
                screens: Shop.declaration(), store: FileStore(directory: directory.url)
            ).launch()
            #expect(session.report.outcome == .restored)
            #expect(session.tree.screen(DraftScreen.self, at: "draft")?.state.text == "half-written, now finished")
        }
    #endif
}
