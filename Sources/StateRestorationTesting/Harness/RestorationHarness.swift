public import Foundation
public import StateRestoration

/// Saves a hierarchy, ends the simulated process, and relaunches, in one call:
/// the restoration test iOS makes so hard to write, as Flutter's
/// `restartAndRestore` and Compose's `StateRestorationTester` do for theirs.
///
/// Each simulated process gets a new `RestorationCoordinator`,
/// a new delegate from the factory, and a new store over the harness's storage
/// (an `InMemoryStore.Storage`, or a directory for a `FileStore`). Nothing else
/// passes from one process to the next: the relaunched process sees exactly the
/// bytes the first one wrote, so a property of a screen that is not part of its
/// state is gone after the relaunch, as it is on a device.
///
/// ```swift
/// let harness = RestorationHarness(screens: AppScreens.declaration)
/// var tree = try AppScreens.declaration.makeInitialTree()
/// try tree.push(ProductScreen(state: .init(productID: "p-42")), onto: "browse")
///
/// let relaunched = try await harness.relaunch(saving: tree)
/// #expect(relaunched.tree == tree)
/// #expect(relaunched.report.skipped.isEmpty)
/// ```
///
/// The delegate factory makes the app's delegate for every process; the harness
/// wraps it in a ``LifecycleRecorder`` so ``Relaunch/lifecycle`` lists the calls.
///
/// `RestorationHarness` is a `Sendable` value. Its storage is shared by its
/// copies: a copy with another ``configuration`` (a newer app version, say)
/// relaunches over what the original saved.
public struct RestorationHarness<Delegate: RestorationDelegate>: Sendable {
    /// Where the simulated processes keep their archives between launches.
    ///
    /// ```swift
    /// let harness = RestorationHarness(screens: screens, storage: .directory(temporaryURL))
    /// ```
    public enum Storage: Sendable {
        /// In memory: each process gets `InMemoryStore(storage:)` over this storage.
        case inMemory(InMemoryStore.Storage)
        /// On disk: each process gets `FileStore(directory:)` over this directory,
        /// which the test creates and removes.
        case directory(URL)

        /// New, empty in-memory storage.
        public static var inMemory: Storage { .inMemory(InMemoryStore.Storage()) }
    }

    /// The declaration launches restore with (saves too, unless told otherwise).
    public let declaration: ScreenDeclaration
    /// The configuration of every simulated process's coordinator.
    public var configuration: RestorationConfiguration
    /// Where the archives are kept between simulated processes.
    public let storage: Storage
    /// Makes the app's delegate, once for every simulated process.
    public let makeDelegate: @Sendable () -> Delegate

    /// Creates a harness for an app's declaration and delegate.
    ///
    /// ```swift
    /// let harness = RestorationHarness(screens: AppScreens.declaration) { AppDelegate(session: .signedIn) }
    /// ```
    ///
    /// - Parameters:
    ///   - screens: The app's screen declaration.
    ///   - configuration: The coordinators' configuration (app version, store key,
    ///     extension timeout, clock).
    ///   - storage: Where archives are kept; new in-memory storage by default.
    ///   - delegate: Makes the app's delegate; called once for every simulated process.
    public init(
        screens: ScreenDeclaration, configuration: RestorationConfiguration = RestorationConfiguration(),
        storage: Storage = .inMemory, delegate: @escaping @Sendable () -> Delegate
    ) {
        self.declaration = screens
        self.configuration = configuration
        self.storage = storage
        self.makeDelegate = delegate
    }

    /// A new store over the harness's storage, as a new process would open it.
    ///
    /// ```swift
    /// let archive = try harness.makeStore().read(.main)
    /// ```
    ///
    /// - Returns: A store that shares nothing with earlier ones but the storage.
    public func makeStore() -> any RestorationStore {
        switch storage {
        case .inMemory(let storage): InMemoryStore(storage: storage)
        case .directory(let url): FileStore(directory: url)
        }
    }

    /// A new coordinator with a new store and a new delegate, logging the
    /// delegate's calls into `log`: one simulated process.
    ///
    /// ```swift
    /// let process = harness.makeCoordinator()
    /// try await process.save(tree)
    /// ```
    ///
    /// - Parameters:
    ///   - screens: The declaration; the harness's when nil.
    ///   - configuration: The configuration; the harness's when nil.
    ///   - log: Where the delegate's calls are logged.
    /// - Returns: The coordinator.
    public func makeCoordinator(
        screens: ScreenDeclaration? = nil, configuration: RestorationConfiguration? = nil,
        log: LifecycleRecorder<Delegate>.Log = .init()
    ) -> RestorationCoordinator<LifecycleRecorder<Delegate>> {
        RestorationCoordinator(
            screens: screens ?? declaration, store: makeStore(), delegate: LifecycleRecorder(makeDelegate(), log: log),
            configuration: configuration ?? self.configuration)
    }

    // MARK: Relaunching

    /// Saves a hierarchy in one simulated process, ends it, and launches a new one.
    ///
    /// ```swift
    /// let relaunched = try await harness.relaunch(saving: tree)
    /// #expect(relaunched.tree == tree)
    /// #expect(relaunched.lifecycle.first == .shouldSave)
    /// ```
    ///
    /// - Parameter tree: The hierarchy the first process saves.
    /// - Returns: The relaunched process's tree, report, coordinator, and both
    ///   processes' delegate calls.
    /// - Throws: What `RestorationCoordinator.save(_:)` or
    ///   `RestorationCoordinator.launch()` throws.
    public func relaunch(saving tree: ScreenTree) async throws -> Relaunch {
        let log = LifecycleRecorder<Delegate>.Log()
        let saving = makeCoordinator(log: log)
        let saveReport = try await saving.save(tree)
        return try await launch(log: log, saveReport: saveReport)
    }

    /// Lets every screen of `tree` capture its live state into it, as an app's save on
    /// entering the background does, then saves it in one simulated process, ends it,
    /// and launches a new one.
    ///
    /// The screens' `willEncodeRestorableState()` hooks change `tree`
    /// itself, so the relaunched tree equals it:
    ///
    /// ```swift
    /// try tree.update(ComposeScreen.self, at: "compose") { $0.editor.text = "Half a sen" }
    /// let relaunched = try await harness.relaunch(capturingLiveStateOf: &tree)
    /// #expect(relaunched.tree == tree)
    /// ```
    ///
    /// - Parameter tree: The hierarchy the first process captures and saves.
    /// - Returns: The relaunched process.
    /// - Throws: What saving or launching throws.
    @MainActor
    public func relaunch(capturingLiveStateOf tree: inout ScreenTree) async throws -> Relaunch {
        tree.captureLiveState()
        return try await relaunch(saving: tree)
    }

    /// Saves a hierarchy, damages the archive as a failing disk or an
    /// interrupted write would, and launches a new process.
    ///
    /// ```swift
    /// let relaunched = try await harness.relaunch(saving: tree, damagedBy: .truncated(toByteCount: 30))
    /// #expect(relaunched.report.outcome == .fresh)
    /// #expect(relaunched.rejectedCheck == "truncated")
    /// ```
    ///
    /// - Parameters:
    ///   - tree: The hierarchy the first process saves.
    ///   - damage: What to do to the archive between the two processes.
    /// - Returns: The relaunched process.
    /// - Throws: ``HarnessError`` when nothing was saved or the damage does not
    ///   fit the archive; otherwise what saving or launching throws.
    public func relaunch(saving tree: ScreenTree, damagedBy damage: ArchiveDamage) async throws -> Relaunch {
        let log = LifecycleRecorder<Delegate>.Log()
        let saveReport = try await makeCoordinator(log: log).save(tree)
        // An archive left by an earlier save is not this tree's: damaging it would test nothing.
        guard saveReport.saved else {
            throw HarnessError("cannot \(damage): nothing was saved (the delegate's shouldSave declined)")
        }
        try damageArchive(damage)
        return try await launch(log: log, saveReport: saveReport)
    }

    /// Saves a hierarchy with an older build's declaration (older State versions,
    /// screens since renamed or removed) and relaunches with the harness's: an
    /// app update between two launches.
    ///
    /// ```swift
    /// var old = try AppV1.screens.makeInitialTree()
    /// try old.push(ProductScreenV1(state: .init(productID: 42)), onto: "browse")
    /// let relaunched = try await harness.relaunch(savingWith: AppV1.screens, tree: old)
    /// #expect(relaunched.report.migrated.map(\.fromVersion) == [1])
    /// ```
    ///
    /// - Parameters:
    ///   - oldDeclaration: The declaration of the build that saves.
    ///   - tree: A hierarchy of that declaration.
    ///   - configuration: The saving build's configuration (its app version, say);
    ///     the harness's when nil.
    /// - Returns: The relaunched process, restored with the harness's declaration.
    /// - Throws: What saving or launching throws.
    public func relaunch(
        savingWith oldDeclaration: ScreenDeclaration, tree: ScreenTree,
        configuration: RestorationConfiguration? = nil
    ) async throws -> Relaunch {
        let log = LifecycleRecorder<Delegate>.Log()
        let saving = makeCoordinator(screens: oldDeclaration, configuration: configuration, log: log)
        let saveReport = try await saving.save(tree)
        return try await launch(log: log, saveReport: saveReport)
    }

    /// Saves a hierarchy and relaunches on a ``TestClock``, advancing it past the
    /// extension timeout once the launch waits for extensions that do not finish,
    /// so an extension that hangs is cancelled without the test sleeping.
    ///
    /// The clock replaces the configuration's for both processes. The harness
    /// advances it once the coordinator sleeps until the timeout and its
    /// extensions have all started and then made no progress, none finishing, for
    /// a settling time (a thousand yields of the harness's own task and at least
    /// 50 milliseconds): to the earliest deadline of another sleeper on the clock
    /// (an extension that waits on it), then again once the launch is stuck again
    /// (the sleeper it woke has run on from its sleep, and made no progress since),
    /// and to the end of `RestorationConfiguration.extensionTimeout` when no
    /// earlier sleeper is left. A launch
    /// whose extensions all finish within the settling time, at once or after
    /// awaiting other tasks, returns without the clock moving; an extension that
    /// takes longer (real I/O, a wall-clock sleep) is timed out like a hung one.
    ///
    /// ```swift
    /// let clock = TestClock()
    /// let harness = RestorationHarness(screens: screens) { HangingLogInDelegate(clock: clock) }
    /// let relaunched = try await harness.relaunch(saving: tree, timingOutExtensionsOn: clock)
    /// #expect(relaunched.report.extensions.map(\.result) == [.timedOut])
    /// ```
    ///
    /// - Parameters:
    ///   - tree: The hierarchy the first process saves.
    ///   - clock: The clock the coordinators measure the timeout on.
    /// - Returns: The relaunched process.
    /// - Throws: What saving or launching throws.
    public func relaunch(saving tree: ScreenTree, timingOutExtensionsOn clock: TestClock) async throws -> Relaunch {
        var configured = self
        configured.configuration.clock = clock
        let progress = ExtensionProgress()
        configured.configuration.extensionProgress = progress
        let harness = configured
        let log = LifecycleRecorder<Delegate>.Log()
        let saveReport = try await harness.makeCoordinator(log: log).save(tree)
        let timeout = harness.configuration.extensionTimeout
        let deadline = clock.now.advanced(by: timeout)
        return try await withThrowingTaskGroup(of: Relaunch?.self) { group in
            group.addTask { try await harness.launch(log: log, saveReport: saveReport) }
            group.addTask {
                // The coordinator starts its timeout when the clock still reads what
                // it reads now (nobody else advances it), so its deadline is known.
                // This task is cancelled as soon as the launch returns.
                // Earlier deadlines (an extension sleeping on the clock) come first, one at a
                // time, each after the launch is stuck again: an extension due before the
                // timeout wakes alone and can finish, as it would on a real clock.
                while !Task.isCancelled {
                    await Self.waitUntilStuck(progress, deadline: deadline, on: clock)
                    guard !Task.isCancelled else { break }
                    guard let earlier = clock.deadlines.first(where: { $0 < deadline }) else {
                        clock.advance(to: deadline)
                        break
                    }
                    clock.advance(to: earlier)
                }
                return nil
            }
            while let result = try await group.next() {
                if let relaunch = result {
                    group.cancelAll()
                    return relaunch
                }
            }
            throw HarnessError("the launch did not return")
        }
    }

    /// Returns once the launch sleeps until its extension timeout while extensions
    /// that have all started stay unfinished for the settling time, or when the
    /// calling task is cancelled.
    ///
    /// Reading the extensions' progress, not only the clock's sleepers, keeps the
    /// clock still in the moment after the last extension finished and before the
    /// coordinator cancelled its timeout; the settling time lets an extension
    /// that is running, or waiting for other tasks, finish first.
    private static func waitUntilStuck(
        _ progress: ExtensionProgress, deadline: TestClock.Instant, on clock: TestClock
    ) async {
        let settlingTurns = 1_000
        let settlingTime = Duration.milliseconds(50)
        var quiet: (counts: ExtensionProgress.Counts, turns: Int, start: ContinuousClock.Instant)?
        while !Task.isCancelled {
            let counts = progress.counts
            // A sleeper the clock just woke has not run on yet: not stuck, however long that takes.
            let stuck =
                counts.total > 0 && counts.started == counts.total && counts.finished < counts.total
                && clock.deadlines.contains(deadline) && !clock.hasWakingSleepers
            if !stuck {
                quiet = nil
            } else if var unchanged = quiet, unchanged.counts == counts {
                unchanged.turns += 1
                if unchanged.turns >= settlingTurns && unchanged.start.duration(to: .now) >= settlingTime { return }
                quiet = unchanged
            } else {
                quiet = (counts, 0, .now)
            }
            await Task.yield()
        }
    }

    // MARK: One process at a time

    /// Saves a hierarchy in a new simulated process, as an app entering the
    /// background does; the process ends when the call returns.
    ///
    /// ```swift
    /// try await harness.save(tree)
    /// try harness.damageArchive(.replacedMagic())
    /// let relaunched = try await harness.launch()
    /// ```
    ///
    /// - Parameter tree: The hierarchy to save.
    /// - Returns: What was saved.
    /// - Throws: What `RestorationCoordinator.save(_:)` throws.
    @discardableResult
    public func save(_ tree: ScreenTree) async throws -> SaveReport {
        try await makeCoordinator().save(tree)
    }

    /// Launches a new simulated process over whatever the storage holds.
    ///
    /// ```swift
    /// let first = try await harness.launch()
    /// #expect(first.report.freshReason?.code == .noArchive)
    /// ```
    ///
    /// - Returns: The launched process; its lifecycle holds only the launch's calls.
    /// - Throws: `DeclarationError` when the declaration has errors.
    public func launch() async throws -> Relaunch {
        try await launch(log: LifecycleRecorder<Delegate>.Log(), saveReport: nil)
    }

    /// Launches as an app does: into a host that shows the tree as soon as it is handed
    /// over, and that says its interface is up once the restoration finished.
    private func launch(log: LifecycleRecorder<Delegate>.Log, saveReport: SaveReport?) async throws -> Relaunch {
        let coordinator = makeCoordinator(log: log)
        let host = await HarnessHost(tree: try declaration.makeInitialTree())
        let report = try await coordinator.launch(into: host)
        await coordinator.restoredInterfaceDidAppear()
        let session = RestorationSession(tree: await host.tree, report: report)
        return Relaunch(session: session, saveReport: saveReport, lifecycle: log.events, coordinator: coordinator)
    }

    // MARK: The stored archive

    /// The archive the storage holds under the configuration's store key, or nil.
    ///
    /// ```swift
    /// let bytes = try #require(try harness.storedArchive())
    /// ```
    ///
    /// - Returns: The archive's bytes, read through a new store.
    /// - Throws: The store's error when the archive cannot be read.
    public func storedArchive() throws -> Data? {
        try makeStore().read(configuration.storeKey)
    }

    /// Replaces the stored archive with other bytes: an archive from a fixture,
    /// another build, or another device.
    ///
    /// ```swift
    /// try harness.replaceArchive(with: Data(contentsOf: fixtureURL))
    /// ```
    ///
    /// - Parameter archive: The bytes the next launch reads.
    /// - Throws: The store's error when it cannot write.
    public func replaceArchive(with archive: Data) throws {
        try makeStore().write(archive, to: configuration.storeKey)
    }

    /// Damages the stored archive in place.
    ///
    /// ```swift
    /// try await harness.save(tree)
    /// try harness.damageArchive(.flippedBodyByte(at: 0))
    /// ```
    ///
    /// - Parameter damage: What to do to the archive.
    /// - Returns: The damaged bytes now stored.
    /// - Throws: ``HarnessError`` when no archive is stored or the damage does not
    ///   fit it; the store's error when it cannot read or write.
    @discardableResult
    public func damageArchive(_ damage: ArchiveDamage) throws -> Data {
        guard let archive = try storedArchive() else {
            throw HarnessError("cannot \(damage): no archive is stored under \(configuration.storeKey)")
        }
        let damaged = try damage.apply(to: archive)
        try replaceArchive(with: damaged)
        return damaged
    }
}

extension RestorationHarness where Delegate == DefaultRestorationDelegate {
    /// Creates a harness whose processes use a delegate that takes every default.
    ///
    /// ```swift
    /// let harness = RestorationHarness(screens: AppScreens.declaration)
    /// ```
    ///
    /// - Parameters:
    ///   - screens: The app's screen declaration.
    ///   - configuration: The coordinators' configuration.
    ///   - storage: Where archives are kept; new in-memory storage by default.
    public init(
        screens: ScreenDeclaration, configuration: RestorationConfiguration = RestorationConfiguration(),
        storage: Storage = .inMemory
    ) {
        self.init(screens: screens, configuration: configuration, storage: storage) { DefaultRestorationDelegate() }
    }
}

/// The simulated app's model: the host a harness launches into.
@MainActor private final class HarnessHost: RestorationHost {
    var tree: ScreenTree

    init(tree: ScreenTree) {
        self.tree = tree
    }
}
