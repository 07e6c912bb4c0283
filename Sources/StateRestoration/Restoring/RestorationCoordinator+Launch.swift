import Foundation

/// The launch path of a coordinator: restoring the saved hierarchy in UIKit's order, handing
/// the tree over, running the restoration extensions, and reading the archive.
extension RestorationCoordinator {
    /// Launches into the app's host: restores the saved hierarchy when there is one
    /// and the delegate allows it, otherwise starts with the declaration's initial
    /// hierarchy, and puts it into `host.tree` at once; returns when the
    /// restoration has finished.
    ///
    /// The order is UIKit's:
    /// 1. ``RestorationDelegate/willFinishLaunching(_:)``, then, for a window of a
    ///    ``RestorationScenes``, the objects the windows share are restored from their
    ///    own archive: by the process's first window launch only, which the others
    ///    wait for;
    /// 2. the archive is read and checked, and
    ///    ``RestorationDelegate/shouldRestore(_:)`` is asked;
    /// 3. screens are re-created top-down (the type's factory, else the delegate),
    ///    each receiving ``RestorableScreen/decodeRestorableState(_:context:)``;
    /// 4. ``RestorationDelegate/didDecodeRestorableState(_:context:)``;
    /// 5. ``RestorationDelegate/didFinishLaunching(_:context:)``;
    /// 6. **the tree is handed over**: `host.tree` is set, and the app shows it;
    /// 7. restoration extensions run while the app is in use (cancelled at the
    ///    timeout, or when the task awaiting this method is cancelled); saves
    ///    requested meanwhile save the host's current tree;
    /// 8. ``RestorableScreen/restorationDidFinish(_:)`` on each restored screen still
    ///    in `host.tree`, in tree order, told how its own extensions ended.
    ///
    /// Crash-loop protection covers building the restored interface: the marker
    /// written before decoding stays until the app calls
    /// ``restoredInterfaceDidAppear()`` (or, if it never does, until the next
    /// save), so a crash while the app builds its screens from the restored tree
    /// makes the next launch fresh. The marker is kept only while the app is in the
    /// foreground (see ``appPhaseDidChange(to:)``): the system's kill of an app in
    /// the background is no crash.
    ///
    /// ```swift
    /// .task { _ = try? await coordinator.launch(into: model) }   // model.tree shows at once
    /// ```
    ///
    /// A missing archive is a fresh launch. An archive that fails a check
    /// (truncated, corrupt, wrong magic, newer format) is a fresh launch too: it is
    /// moved aside under a name that says it was rejected, and the report says
    /// which check failed. Nothing about an archive makes this method crash or throw.
    ///
    /// - Parameter host: The object that holds the app's tree.
    /// - Returns: A report of what happened, with every extension's outcome.
    /// - Throws: ``DeclarationError`` when the declaration has errors; nothing
    ///   is read or written then, and the host's tree is not changed.
    @MainActor
    @discardableResult
    public func launch(into host: some RestorationHost) async throws(DeclarationError) -> LaunchReport {
        let handover = try await beginLaunch()
        host.tree = handover.tree
        let finished = await runExtensions(of: handover)
        // Not touched when nothing was restored: every change tells the host's observers.
        if !finished.results.isEmpty { host.tree.finishRestoring(finished.results) }
        return await completeLaunch(handover, finished, interfaceIsUp: false)
    }

    /// Launches and waits until the restoration has finished, then returns the
    /// tree with ``RestorableScreen/restorationDidFinish(_:)`` called on its
    /// restored screens: for tools, tests and apps without a UI.
    ///
    /// It runs the steps of ``launch(into:)``, in its order, on a tree of its own
    /// that it returns at the end, and it takes the end of the restoration for the
    /// interface being up (see ``restoredInterfaceDidAppear()``). An app with a UI
    /// uses ``launch(into:)``, which shows the restored screens before the
    /// restoration extensions end.
    ///
    /// The screens' finished-restoring hooks run on the main actor, so the main
    /// thread must not be blocked waiting for this launch: a command-line tool
    /// awaits it from its `async` main, or runs the main run loop while it waits.
    ///
    /// - Returns: The hierarchy and a report of what happened.
    /// - Throws: ``DeclarationError`` when the declaration has errors; nothing
    ///   is read or written then.
    public func launch() async throws(DeclarationError) -> RestorationSession {
        let handover = try await beginLaunch()
        let finished = await runExtensions(of: handover)
        var tree = handover.tree
        if !finished.results.isEmpty {  // no hop to the main actor when nothing was restored
            tree = await MainActor.run { [tree] in
                var tree = tree
                tree.finishRestoring(finished.results)
                return tree
            }
        }
        let report = completeLaunch(handover, finished, interfaceIsUp: true)
        return RestorationSession(tree: tree, report: report)
    }

    /// Tells the coordinator that the app's interface shows the restored tree, so
    /// the next launch restores the archive again: the crash-loop marker written
    /// before decoding is removed.
    ///
    /// Call it once the restored screens are built: in SwiftUI from the root view's
    /// `.task(id: model.tree.root.id)` (the handover gives the tree a new root, so
    /// the task runs again once the view shows it), in UIKit after the scene's
    /// window shows the view controllers built from the host's tree. A call before
    /// the handover does nothing. Until the call, a crash or a kill in the foreground
    /// makes the next launch fresh, reported as
    /// ``LaunchReport/FreshReason/Code/crashedDuringRestoration``, as UIKit does for
    /// a crash during restoration. An app that never calls it has the marker
    /// removed by its next save (the save when it enters the background); a later
    /// launch by the same coordinator knows the marker for its own. It does nothing
    /// when no marker is pending (a fresh launch, or a second call).
    public func restoredInterfaceDidAppear() {
        guard machine.interfaceAppeared() == .remove else { return }
        var notes: [String] = []
        removeRestorationMarker(notes: &notes)
        var log = OperationLog(configuration.logHandler, .launch)
        for note in notes { log(.warning, .note, note) }
        log.phase("restored interface appeared, remove restoration marker")
    }

    /// Tells the coordinator the phase the app (or this window) entered, so that a launch the
    /// user leaves before its restoration is over is not taken for a crash.
    ///
    /// The crash-loop marker that makes the next launch fresh after a crash during restoration
    /// is kept only while the app is in the foreground: the system ends apps in the background
    /// routinely, and no code failed there. Entering ``AppPhase/background`` or
    /// ``AppPhase/terminate`` before the restoration is over removes the marker (so a kill in
    /// the background, or a swipe in the app switcher, keeps the archive), and
    /// ``AppPhase/active`` writes it again while the restoration is still under way (so a
    /// crash after the user came back is caught). A launch is taken to be in the foreground
    /// until told otherwise. ``RestorationModel/handle(_:)`` calls this for its window.
    ///
    /// ```swift
    /// func sceneDidBecomeActive(_ scene: UIScene) {
    ///     coordinator.appPhaseDidChange(to: .active)
    /// }
    /// func sceneDidEnterBackground(_ scene: UIScene) {
    ///     coordinator.appPhaseDidChange(to: .background)
    /// }
    /// ```
    ///
    /// It runs at once, on the caller's thread, whatever the coordinator is doing: the platform
    /// suspends an app soon after it enters the background. For a window of a
    /// ``RestorationScenes``, the marker of the objects the windows share follows the phase the
    /// last window reported.
    ///
    /// - Parameter phase: The phase the app entered.
    public nonisolated func appPhaseDidChange(to phase: AppPhase) {
        let problems = [marker.appPhaseDidChange(to: phase), sharedObjects?.marker.appPhaseDidChange(to: phase)]
        let log = OperationLog(configuration.logHandler, .launch)
        for case let problem? in problems { log(.warning, .note, problem) }
    }

    /// What the first phase of a launch hands over.
    struct Handover: Sendable {
        var tree: ScreenTree
        var report: LaunchReport
        let extensions: RestorationExtensions
        /// The restored screens, in tree order: their identities and the paths they were
        /// restored at.
        let restored: [(id: ScreenNode.ID, path: IdentifierPath?)]
        var log: OperationLog
    }

    /// How a launch's extensions ended, and what each restored screen is told.
    struct FinishedExtensions: Sendable {
        var outcomes: [LaunchReport.ExtensionOutcome]
        var results: [ScreenNode.ID: RestorationResults]
    }

    /// Steps 1 to 5 of a launch, holding the coordinator: saves and discards wait,
    /// and those made from the delegate's callbacks fail at once.
    private func beginLaunch() async throws(DeclarationError) -> Handover {
        let initialTree = try declaration.makeInitialTree()
        await takeTurn()
        defer { passTurn() }
        // The launch awaits this task, where it calls the delegate: a save or a discard there
        // fails at once instead of waiting for the launch that waits for it. Other tasks, made
        // there or anywhere, wait as usual.
        let task = AwaitedTasks.current
        awaitedTasks.insert(task)
        defer { awaitedTasks.remove(task) }
        var handover = await restore(initialTree: initialTree)
        // From here a save of a tree made before this one would write an older hierarchy over
        // the archive just restored.
        let marker = machine.handedOver(
            root: handover.tree.root.id, restored: handover.report.outcome == .restored)
        if marker == .remove { removeRestorationMarker(notes: &handover.report.notes) }
        return handover
    }

    /// Step 7: runs the extensions, without holding the coordinator, and sorts their outcomes
    /// by the screen that added them.
    private nonisolated func runExtensions(of handover: Handover) async -> FinishedExtensions {
        let finished = await ExtensionRunner.run(
            handover.extensions.close(), timeout: configuration.extensionTimeout, clock: configuration.clock,
            progress: configuration.extensionProgress)
        var byPath: [IdentifierPath: [ExtensionRunner.Finished]] = [:]
        for entry in finished {
            if let path = entry.outcome.path { byPath[path, default: []].append(entry) }
        }
        var results: [ScreenNode.ID: RestorationResults] = [:]
        for screen in handover.restored {
            let own = screen.path.flatMap { byPath[$0] } ?? []
            results[screen.id] = RestorationResults(
                extensions: own.map(\.outcome),
                values: own.compactMap { entry in entry.value.map { (entry.outcome.name, $0) } })
        }
        return FinishedExtensions(outcomes: finished.map(\.outcome), results: results)
    }

    /// The end of a launch: the report's extensions and diagnostics, the log.
    private func completeLaunch(
        _ handover: Handover, _ finished: FinishedExtensions, interfaceIsUp: Bool
    ) -> LaunchReport {
        var report = handover.report
        var log = handover.log
        report.extensions = finished.outcomes
        report.extensions += handover.extensions.late.map { .init(name: $0, path: nil, result: .late) }
        report.diagnostics = handover.extensions.diagnostics.entries
        log.phase("extensions, finished restoring")
        if machine.launchCompleted(interfaceIsUp: interfaceIsUp) == .remove {
            removeRestorationMarker(notes: &report.notes)
            log.phase("remove restoration marker")
        }
        Self.logOutcome(of: report, to: log)
        return report
    }

    /// Steps 1 to 5: will-finish-launching, the archive read and checked, should-restore,
    /// screens re-created and decoded, did-decode, did-finish-launching.
    private func restore(initialTree: ScreenTree) async -> Handover {
        var log = OperationLog(configuration.logHandler, .launch)
        log(.info, .started, "archive \(configuration.storeKey)")
        let extensions = RestorationExtensions()
        await delegate.willFinishLaunching(
            RestorationContext(identifierPath: nil, archiveInfo: nil, extensions: extensions))
        log.phase("will-finish-launching")
        // Restored by the process's first window launch only: a later one would take the
        // live objects back to an older state.
        let shared = await sharedObjects?.restore()
        if shared != nil { log.phase("restore the objects the windows share") }
        // A window's own object takes the place of a shared one registered under its identifier.
        let contextObjects = (shared?.objects ?? [:]).merging(objects) { _, own in own }

        var report: LaunchReport
        var tree = initialTree
        var restoredScreens: [(id: ScreenNode.ID, path: IdentifierPath?)] = []
        var markerNotes: [String] = []
        let read = readArchive(notes: &markerNotes)
        log.phase("read archive, write restoration marker")
        switch read {
        case .fresh(let freshReport):
            report = freshReport
        case .archive(let archive, let info):
            log(
                .info, .archiveRead,
                "\(configuration.storeKey), format \(info.formatVersion), app \(info.appVersion ?? "unknown"), saved \(info.savedAt.formatted(.iso8601)), \(info.screenCount) screens"
            )
            let now = configuration.now()
            if let refusal = refusal(markerFound: false, info: info, now: now) {
                report = LaunchReport(outcome: .fresh, freshReason: refusal)
                report.archiveInfo = info
            } else if await delegate.shouldRestore(info) {
                log.phase("should-restore")
                let declaredRoot = initialTree.root
                guard let root = archive.root, root.id == declaredRoot.identifier, root.kind == declaredRoot.kind else {
                    // Nothing of the archive can come back: no object or app-wide state either.
                    let found = archive.root.map { "\($0.id) (\($0.kind.rawValue))" } ?? "nothing"
                    report = LaunchReport(
                        outcome: .fresh,
                        freshReason: .init(
                            .rootNotRestored,
                            "the archive's root \(found) is not the declaration's root \(declaredRoot.displayName) (\(declaredRoot.kind.rawValue))"
                        ))
                    report.archiveInfo = info
                    break
                }
                var objectNotes: [String] = []
                let restoredObjects = await restoreObjects(
                    archive.objects ?? [], sharedIdentifiers: Set(shared.map { Array($0.objects.keys) } ?? []),
                    notes: &objectNotes)
                log.phase("restore shared objects")
                var restoration = Restoration(info: info, extensions: extensions, objects: contextObjects, now: now)
                let restoredRoot = await restore(
                    root, declared: declaredRoot.declaration, path: IdentifierPath([root.id]), into: &restoration)
                log.phase("re-create and decode screens")
                if let node = restoredRoot {
                    tree = ScreenTree(root: node)
                    report = LaunchReport(outcome: .restored)
                    restoredScreens = restoration.restoredScreens(in: tree)
                } else {
                    report = LaunchReport(
                        outcome: .fresh,
                        freshReason: .init(
                            .rootNotRestored,
                            "the archive's root \(root.id) could not be restored: \(restoration.skipped.first?.message ?? "skipped")"
                        ))
                    if !restoredObjects.isEmpty {
                        objectNotes.append(
                            "shared objects \(restoredObjects.joined(separator: ", ")) took back their saved state before the root failed to restore"
                        )
                    }
                }
                report.archiveInfo = info
                report.skipped = restoration.skipped
                report.migrated = restoration.migrated
                report.restoredObjects = restoredObjects
                report.notes += objectNotes
                // The app-wide state comes back with the hierarchy only, as a fresh launch skips did-decode.
                if report.outcome == .restored {
                    let appState = decodeAppState(archive.appState, notes: &report.notes)
                    await delegate.didDecodeRestorableState(
                        appState,
                        context: RestorationContext(
                            identifierPath: nil, archiveInfo: info, extensions: extensions, objects: contextObjects))
                    log.phase("did-decode")
                }
            } else {
                report = LaunchReport(
                    outcome: .fresh, freshReason: .init(.declinedByDelegate, "the delegate declined to restore"))
                report.archiveInfo = info
            }
        }
        report.restoredPaths = restoredScreens.compactMap(\.path)
        report.notes += markerNotes
        if let shared {
            report.restoredObjects = shared.restoredIdentifiers + report.restoredObjects
            report.notes = shared.notes + report.notes
        }

        await delegate.didFinishLaunching(
            report,
            context: RestorationContext(
                identifierPath: nil, archiveInfo: report.archiveInfo, extensions: extensions, objects: contextObjects))
        log.phase("did-finish-launching")
        return Handover(tree: tree, report: report, extensions: extensions, restored: restoredScreens, log: log)
    }

    /// Why a launch does not restore an archive that opened: the previous launch died while
    /// restoring it (its marker was found) and ``RestorationConfiguration/restoresAfterCrash``
    /// is off, or it is older than ``RestorationConfiguration/maximumArchiveAge``; nil when
    /// neither. The one check of ``launch(into:)`` and ``savedArchiveInfo()``.
    ///
    /// - Parameters:
    ///   - markerFound: Whether a restoration marker is beside the archive.
    ///   - info: The archive's info; nil before it is decoded (only the marker is checked).
    ///   - now: The time to measure the archive's age at.
    func refusal(markerFound: Bool, info: ArchiveInfo?, now: Date) -> LaunchReport.FreshReason? {
        let key = configuration.storeKey
        if markerFound && !configuration.restoresAfterCrash {
            return .init(
                .crashedDuringRestoration,
                "the previous launch ended while restoring archive \(key), so it is not restored again")
        }
        guard let info, let maximumAge = configuration.maximumArchiveAge else { return nil }
        let age = Duration.seconds(max(0, now.timeIntervalSince(info.savedAt)))
        guard age > maximumAge else { return nil }
        return .init(
            .stale,
            "archive \(key) was saved \(age.formatted) ago; archives older than \(maximumAge.formatted) are not restored"
        )
    }

    /// Logs what a launch did, one event per restored, skipped or migrated screen.
    private static func logOutcome(of report: LaunchReport, to log: OperationLog) {
        guard log.handler != nil else { return }
        if let rejected = report.rejectedArchive {
            log(.warning, .archiveRejected, "moved aside to \(rejected)")
        }
        if let reason = report.freshReason {
            log(reason.code == .noArchive ? .info : .warning, .fresh, "\(reason.code): \(reason.message)")
        }
        for identifier in report.restoredObjects { log(.info, .objectRestored, identifier) }
        for path in report.restoredPaths { log(.debug, .screenRestored, path: path, "restored") }
        for migrated in report.migrated {
            log(
                .info, .screenMigrated, path: migrated.path,
                "State version \(migrated.fromVersion) to \(migrated.toVersion)")
        }
        for skipped in report.skipped {
            log(.warning, .screenSkipped, path: skipped.path, "\(skipped.reason): \(skipped.message)")
        }
        for outcome in report.extensions {
            log(
                outcome.result == .completed ? .info : .warning, .extensionFinished, path: outcome.path,
                "\(outcome.name): \(outcome.result)")
        }
        for note in report.notes { log(.warning, .note, note) }
        for diagnostic in report.diagnostics { log(.info, .note, path: diagnostic.path, diagnostic.message) }
        log.finished(
            "\(report.outcome.rawValue), \(report.restoredPaths.count) screens restored, \(report.skipped.count) skipped"
        )
    }

    // MARK: Reading

    private enum ReadResult {
        case fresh(LaunchReport)
        case archive(RestorationArchive, ArchiveInfo)
    }

    /// Reads and checks the archive; anything wrong with it is a fresh launch.
    ///
    /// Before decoding, a marker is written beside the archive and it stays until
    /// the app's interface is up (``restoredInterfaceDidAppear()``), the next save,
    /// or the end of a launch without an interface. A marker found
    /// here means the previous launch died while restoring this archive: UIKit then
    /// ignores the archive, and so does this, unless
    /// ``RestorationConfiguration/restoresAfterCrash`` is set.
    private func readArchive(notes: inout [String]) -> ReadResult {
        let key = configuration.storeKey
        let data: Data
        do {
            guard let stored = try store.read(key) else {
                removeRestorationMarker(notes: &notes)
                return .fresh(LaunchReport(outcome: .fresh, freshReason: .init(.noArchive, "no archive was saved")))
            }
            data = stored
        } catch let error as StoreError
            where (error.code == .tooLarge || error.code == .notAFile) && error.operation == .read
        {
            // Unlike a locked device, these do not pass (see `StoreError.Code.tooLarge`): move
            // the file aside, as a damaged archive is, so the next save does not overwrite it
            // unseen, or can write at all.
            let reason = error.code == .tooLarge ? "too-large" : "not-a-file"
            var report = LaunchReport(
                outcome: .fresh, freshReason: .init(.archiveRejected, "archive \(key) rejected (\(reason)): \(error)"))
            reject(key, reason: reason, into: &report)
            removeRestorationMarker(notes: &report.notes)
            return .fresh(report)
        } catch {
            return .fresh(
                LaunchReport(
                    outcome: .fresh, freshReason: .init(.storeUnreadable, "cannot read archive \(key): \(error)")))
        }
        // A marker this coordinator's own earlier launch left (its interface not yet reported) is
        // no crash: this process is alive.
        let markerFound = machine.marker == .none && marker.isFound
        if let refusal = refusal(markerFound: markerFound, info: nil, now: configuration.now()) {
            var report = LaunchReport(outcome: .fresh, freshReason: refusal)
            reject(key, reason: "crashed-during-restoration", into: &report)
            removeRestorationMarker(notes: &report.notes)
            return .fresh(report)
        } else if markerFound {
            notes.append("the previous launch died while restoring \(key); restoring it anyway (restoresAfterCrash)")
        }
        do {
            try marker.arm()
            machine.markerWritten()
        } catch {
            notes.append(
                "crash-loop protection is off for this launch: the marker \(marker.key) could not be written: \(error)")
        }
        do {
            let (archive, info) = try RestorationArchive.open(data)
            return .archive(archive, info)
        } catch {
            let check = RestorationArchive.failedCheck(error)
            var report = LaunchReport(
                outcome: .fresh, freshReason: .init(.archiveRejected, "archive \(key) rejected (\(check)): \(error)"))
            reject(key, reason: check, into: &report)
            return .fresh(report)
        }
    }

    /// Removes the restoration marker: the launch completed.
    ///
    /// - Returns: Whether the marker is gone. One that could not be removed stays pending, and
    ///   is tried again at the next occasion (a save, the interface appearing).
    @discardableResult
    func removeRestorationMarker(notes: inout [String]) -> Bool {
        do {
            try marker.disarm()
            machine.markerRemoved()
            return true
        } catch {
            notes.append(
                "the restoration marker \(marker.key) could not be removed; the next launch will not restore: \(error)")
            return false
        }
    }

    /// Moves a bad archive aside, so it can be inspected and the next save starts anew.
    func reject(_ key: StoreKey, reason: String, into report: inout LaunchReport) {
        report.rejectedCheck = reason
        do {
            report.rejectedArchive = try store.reject(key, reason: reason)
        } catch {
            report.notes.append("the rejected archive \(key) could not be moved aside: \(error)")
        }
    }

    private func decodeAppState(_ data: Data?, notes: inout [String]) -> Delegate.AppState? {
        guard let data else { return nil }
        do {
            return try ArchiveDecoder().decode(Delegate.AppState.self, from: data)
        } catch {
            notes.append("the app-wide state \(Delegate.AppState.self) did not decode: \(error)")
            return nil
        }
    }
}
