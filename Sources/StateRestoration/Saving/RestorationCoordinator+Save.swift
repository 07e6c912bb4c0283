import Foundation

/// The save path of a coordinator: capturing the live states, encoding what changed, and
/// writing the archive.
extension RestorationCoordinator {
    /// Saves the host's tree as the archive the next launch restores, after each
    /// screen captured its live state into it: call it when the app enters the
    /// background.
    ///
    /// On the main actor, every screen's ``RestorableScreen/willEncodeRestorableState()``
    /// runs on the screen in `host.tree` itself, in tree order, so what it copies
    /// from the live UI (the text being edited) stays in the app's tree; the tree is
    /// then saved as ``save(_:)-(ScreenTree)`` saves a tree, encoding and writing off
    /// the main actor.
    ///
    /// ```swift
    /// .onChange(of: scenePhase) { _, phase in
    ///     if phase == .background { Task { try await coordinator.save(model) } }
    /// }
    /// ```
    ///
    /// A save requested while a launch runs its restoration extensions saves the
    /// host's current tree. One requested before the launch handed its tree over
    /// writes nothing (``RestorationError/Code/saveBeforeLaunch``, or
    /// ``RestorationError/Code/treePredatesLaunch`` when a launch was under way):
    /// the archive being restored stays.
    ///
    /// - Parameter host: The object that holds the app's tree.
    /// - Returns: What was saved and skipped.
    /// - Throws: What ``save(_:)-(ScreenTree)`` throws; nothing was written then.
    @MainActor
    @discardableResult
    public func save(_ host: some RestorationHost) async throws -> SaveReport {
        guard await launchHandedOver else {
            throw RestorationError(
                .saveBeforeLaunch,
                message:
                    "not saved: the host's tree was saved before this coordinator's launch(into:) handed it the restored one; it would replace the saved archive with the initial hierarchy"
            )
        }
        var captured = host.tree
        captured.captureLiveState()
        // Set only when a hook changed something: every set tells the host's observers.
        if captured != host.tree { host.tree = captured }
        return try await save(captured)
    }

    /// Whether a launch of this coordinator has handed its tree over.
    private var launchHandedOver: Bool { machine.hasHandedOver }

    /// Saves a hierarchy, as it is, as the archive the next launch restores.
    ///
    /// Asks ``RestorationDelegate/shouldSave(_:)`` (which may add metadata), takes
    /// the app-wide state from ``RestorationDelegate/willEncodeRestorableState()``,
    /// walks the tree by UIKit's rules (a node without an identifier is skipped
    /// with everything under it), encodes each state on its own, and writes one
    /// archive through the store: atomically, so the previous archive stays whole
    /// until the new one replaces it. The screens' capture hooks are not called
    /// here: ``save(_:)-(RestorationHost)`` calls them in the app's tree first, or
    /// the app calls ``ScreenTree/captureLiveState()``.
    ///
    /// Saves requested while a save or the first phase of a launch is running wait
    /// for it, and coalesce: when the coordinator is free, the newest requested
    /// tree is written once, and every request it superseded returns that save's
    /// report. Archives are never written out of order, and a save never overlaps
    /// the decoding of a restoration. A tree made before the latest launch handed
    /// its tree over is refused (``RestorationError/Code/treePredatesLaunch``): it
    /// would write an older hierarchy over the archive being restored.
    ///
    /// A screen whose state is unchanged since the previous save reuses its
    /// encoded bytes (``SaveReport/reusedStateCount``), so saving a large
    /// hierarchy where one screen changed encodes one state.
    ///
    /// A window of a ``RestorationScenes`` first saves the objects the windows share to
    /// their own archive (see ``RestorationScenes/register(_:identifier:)``); when that
    /// fails, the window's archive is not written either. When the window's own write
    /// fails after it, the shared archive holds the newer states, whole.
    ///
    /// - Parameter tree: The hierarchy to save.
    /// - Returns: What was saved and skipped.
    /// - Throws: ``DeclarationError`` when the declaration has errors;
    ///   ``RestorationError`` when a state does not encode or the store fails, the
    ///   tree predates the launch, the calling task was cancelled before the archive
    ///   was written (``RestorationError/Code/cancelled``), or
    ///   (``RestorationError/Code/insideLaunch``) when called from a delegate callback
    ///   of this coordinator's running launch, which waits for it. In every case nothing was written and the previous archive is
    ///   intact.
    @discardableResult
    public func save(_ tree: ScreenTree) async throws -> SaveReport {
        try requireOutsideLaunch("save(_:)")
        try declaration.validate()
        savesUnderWay += 1
        defer { savesUnderWay -= 1 }
        let ticket = machine.requestSave(tree)
        await takeTurn()
        defer { passTurn() }
        let result: Result<SaveReport, any Error>
        switch machine.saveTurn(ticket: ticket, tree: tree) {
        case .returnResult(let covered):
            return try covered.get()  // a newer request's save already covered this one
        case .refuse(let written, let error):
            result = .failure(error)
            machine.saveFinished(ticket: written, result: result)
        case .write(let written, let writtenTree):
            do {
                result = .success(try await performSave(writtenTree))
            } catch {
                result = .failure(error)
            }
            machine.saveFinished(ticket: written, result: result)
        }
        return try result.get()
    }

    /// Saves a hierarchy as the archive the next launch restores, and logs it.
    private func performSave(_ tree: ScreenTree) async throws -> SaveReport {
        var log = OperationLog(configuration.logHandler, .save)
        do {
            let report = try await performSave(tree, log: &log)
            if log.handler != nil {
                for path in report.savedPaths { log(.debug, .nodeSaved, path: path, "saved") }
                for skipped in report.skipped {
                    log(.info, .nodeSkipped, path: skipped.path, "\(skipped.reason): \(skipped.message)")
                }
                for warning in report.budgetWarnings { log(.warning, .budgetExceeded, warning) }
                if report.saved {
                    log.finished(
                        "\(report.savedNodeCount) nodes saved, \(report.encodedStateCount) states encoded, \(report.reusedStateCount) reused, \(report.byteCount.grouped) bytes"
                    )
                } else {
                    log(.info, .declined, "should-save declined; the previous archive stays")
                }
            }
            return report
        } catch {
            log(.warning, .failed, "\(error)")
            throw error
        }
    }

    private func performSave(_ tree: ScreenTree, log: inout OperationLog) async throws -> SaveReport {
        var metadata = RestorationMetadata()
        guard await delegate.shouldSave(&metadata) else { return SaveReport(saved: false) }
        log.phase("should-save")
        let appState = await delegate.willEncodeRestorableState()
        log.phase("will-encode")
        try requireNotCancelled()

        let encoder = ArchiveEncoder()
        var report = SaveReport(saved: true)
        var archivedObjects: [ArchivedObject] = []
        for (identifier, object) in objects.sorted(by: { $0.key < $1.key }) {
            do {
                archivedObjects.append(
                    ArchivedObject(
                        id: identifier, type: Swift.type(of: object).typeKey,
                        state: try await object.encodedState(with: encoder)))
            } catch {
                throw RestorationError(
                    .encodingFailed, message: "cannot save object \(identifier): \(error)", underlying: error)
            }
        }
        let root = try HierarchyArchiver(encoder: encoder, previous: lastEncoding).archive(tree, report: &report)
        var archive = RestorationArchive(
            appVersion: configuration.appVersion, savedAt: configuration.now(), metadata: metadata, appState: nil,
            encodedRoot: root?.bytes, objects: archivedObjects.isEmpty ? nil : archivedObjects,
            ignoresSnapshot: ignoresSnapshotOnNextSave ? true : nil)
        if let appState {
            do {
                archive.appState = try encoder.encode(appState)
            } catch {
                throw RestorationError(
                    .encodingFailed, message: "cannot save the app-wide state \(Delegate.AppState.self): \(error)",
                    underlying: error)
            }
        }
        let sealed: Data
        do {
            sealed = ArchiveEnvelope.seal(try encoder.encode(archive), formatVersion: RestorationArchive.formatVersion)
        } catch {
            throw RestorationError(.encodingFailed, message: "cannot encode the archive: \(error)", underlying: error)
        }
        // What this save encoded is the next one's to compare with, whether or not the store
        // takes the archive: the encodings describe the states they hold either way. (A save
        // that failed before this point leaves the previous save's, which is as correct.)
        lastEncoding = root
        report.hierarchy = root.map { SavedHierarchy(root: $0.saved) }
        log.phase("encode")
        report.budgetWarnings = configuration.budget.warnings(
            for: report, archiveBytes: sealed.count, key: configuration.storeKey)
        if configuration.budget.isEnforced, let first = report.budgetWarnings.first {
            throw RestorationError(.budgetExceeded, message: "not saved: \(first)")
        }
        try requireNotCancelled()
        if machine.saveWillWrite() == .remove {
            // The app ran with the restored tree long enough to save: the archive is no longer
            // the one whose restoring might crash. The marker goes first: a marker left beside
            // the new archive would make the next launch reject it.
            var notes: [String] = []
            guard removeRestorationMarker(notes: &notes) else {
                // Written beside the marker, the new archive would be rejected by the next launch
                // as one that crashed it: keep the user's tree in memory for the next save instead.
                throw RestorationError(
                    .storeFailed,
                    message: "not saved: \(notes.first ?? "the restoration marker could not be removed")")
            }
        }
        // The objects the windows share go to their own archive, before this window's.
        if let sharedObjects {
            try await sharedObjects.save()
            log.phase("save the objects the windows share")
            try requireNotCancelled()  // that save may have waited for another window's
        }
        // Unknown until the write returns: a write that throws may have replaced the archive.
        writtenRoot = nil
        do {
            try store.write(sealed, to: configuration.storeKey)
        } catch {
            throw RestorationError(
                .storeFailed, message: "cannot save archive \(configuration.storeKey): \(error)", underlying: error)
        }
        log.phase("write")
        writtenRoot = root?.bytes
        report.byteCount = sealed.count
        ignoresSnapshotOnNextSave = false
        return report
    }

    /// Whether a save of `tree` would write what the store already holds: no save is under way
    /// that would write another archive over it, the archive holds nothing but the hierarchy (no
    /// registered or shared objects, no app-wide state, no request to ignore the snapshot), and
    /// this coordinator's last write encoded the hierarchy as `tree` encodes now.
    ///
    /// The tree is walked as a save walks it, reusing the last save's encodings, so an
    /// unchanged tree costs a comparison of each state and nothing is written.
    func archiveHolds(_ tree: ScreenTree) -> Bool {
        guard savesUnderWay == 0, let writtenRoot, !ignoresSnapshotOnNextSave, objects.isEmpty,
            sharedObjects?.objects.isEmpty ?? true, Delegate.AppState.self == NoAppState.self
        else { return false }
        var report = SaveReport(saved: false)
        let root = try? HierarchyArchiver(encoder: ArchiveEncoder(), previous: lastEncoding).archive(
            tree, report: &report)
        return root?.bytes == writtenRoot
    }

    /// Stops a save whose task was cancelled, before it writes anything.
    private func requireNotCancelled() throws(RestorationError) {
        guard Task.isCancelled else { return }
        throw RestorationError(
            .cancelled, message: "not saved: the save was cancelled before writing; the previous archive stays")
    }
}
