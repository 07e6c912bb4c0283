import StateRestoration

/// What one window's archive may hold and what its next launch may report, kept
/// from the steps the driver took, and the check of each launch against it.
///
/// Trees are compared with `ScreenTree ==`: structure, identifiers, selections,
/// screen types and states; node identities are not compared.
///
/// From the launch the oracle checked, it numbers the trees the window's model
/// holds: version 0 is the tree the launch handed over (what the disk held then),
/// and each edit makes the next version. Every save the process starts may write
/// the tree of some range of versions:
/// - an explicit `save()` writes the version of its call (the model captures its
///   tree before it suspends);
/// - a save a phase asks for writes a version from the phase's call on, known to
///   be finished when `savesFinished()` returns; until then its range is open;
/// - the launch counts as a save of version 0, done.
///
/// A save is confirmed when `save()` returned or `savesFinished()` did, without a
/// save error. The archive then holds a version no older than the newest version
/// a confirmed save started from (the floor): saves are written in the order they
/// were asked for, each writing the newest tree asked for so far. So a kill leaves
/// a tree of a version at or above the floor that some save may have written:
/// the last confirmed save's, or one in flight.
///
/// The restoration marker (crash-loop protection) may be pending from the launch
/// until the window shows its screens (`restoredInterfaceDidAppear()`) or a save
/// is confirmed; a launch that found no archive writes none. A kill while it may be
/// pending, in the foreground, lets the next launch report
/// `crashedDuringRestoration`, and then the archive is gone. A kill after the
/// window went to the background and its background work finished does not: the
/// model gives the phase to the coordinator, which drops the marker there and
/// writes it again once the window is active while the launch is unfinished.
struct ChaosOracle {
    /// A save of this process: the versions whose tree it may write.
    private struct Save {
        /// The oldest such version.
        var first: Int
        /// The newest, once known; nil while the save may still take a newer one.
        var last: Int?
    }

    /// The declaration's initial tree, which a launch without archive shows.
    let initial: ScreenTree

    /// The trees the current process's launch may restore.
    private var candidates: [ScreenTree]
    /// Whether the current process's launch may report `crashedDuringRestoration`.
    private var crashAllowed = false
    /// Whether the current process's launch was checked.
    private(set) var launchChecked = false
    /// The trees the model held since its launch was checked, by version.
    private var versions: [ScreenTree] = []
    /// The saves of this process, in the order they were asked for.
    private var saves: [Save] = []
    /// The newest version a confirmed save started from.
    private var floor = 0
    /// Saves phases asked for before the launch was checked, not yet known finished.
    private var uncheckedPhaseSaves = 0
    /// Whether this process's restoration marker may still be on disk.
    private var markerMayBePending = true
    /// How many processes were killed before their launch was checked, since the last check.
    private var uncheckedLaunches = 0

    /// An oracle for a window that has never saved.
    init(initial: ScreenTree) {
        self.initial = initial
        self.candidates = [initial]
    }

    /// The newest version.
    private var newest: Int { versions.count - 1 }

    // MARK: Launches

    /// Checks the launch of the current process, whose model shows `tree`; returns
    /// what is wrong, or nil. From then on the oracle follows the model's edits.
    mutating func check(_ report: LaunchReport, tree: ScreenTree) -> String? {
        var problem: String?
        switch (report.outcome, report.freshReason?.code) {
        case (.restored, _):
            if !report.skipped.isEmpty {
                problem = "the launch skipped screens: \(report.skipped)"
            } else if !candidates.contains(tree) {
                problem = "the launch restored a tree that is neither the last confirmed save's nor one in flight"
            }
        case (.fresh, .crashedDuringRestoration?):
            if !crashAllowed {
                problem =
                    "the launch reported crashedDuringRestoration and threw the archive away, but the previous process "
                    + "was not killed while restoring in the foreground"
            } else if tree != initial {
                problem = "the launch after a crash shows another tree than the initial one"
            }
        case (.fresh, .noArchive?):
            if !candidates.contains(initial) {
                problem = "the launch found no archive after a confirmed save"
            } else if tree != initial {
                problem = "the launch without archive shows another tree than the initial one"
            }
        default:
            problem = "the launch started fresh: \(report.freshReason?.description ?? "no reason")"
        }
        if var problem {
            if uncheckedLaunches > 0 {
                problem +=
                    " (\(uncheckedLaunches) launches before this one were killed unchecked: one of them may have "
                    + "started fresh or thrown the archive away where it should not have)"
            }
            let restored = ["restored (\(report.outcome.rawValue)):", tree.description]
            return ([problem] + restored + ["allowed:"] + candidates.map(\.description)).joined(separator: "\n")
        }
        launchChecked = true
        uncheckedLaunches = 0
        versions = [tree]
        saves = [Save(first: 0, last: 0)] + Array(repeating: Save(first: 0, last: nil), count: uncheckedPhaseSaves)
        uncheckedPhaseSaves = 0
        floor = 0
        if report.outcome != .restored { markerMayBePending = false }
        return nil
    }

    /// The process was killed; `inBackground` when the window was in the
    /// background, its background work finished. The next launch is checked
    /// against what the disk may hold now.
    mutating func killed(inBackground: Bool) {
        var next: [ScreenTree] = []
        if launchChecked {
            for save in saves {
                let last = save.last ?? newest
                guard last >= floor else { continue }
                for version in Swift.max(save.first, floor)...last where !next.contains(versions[version]) {
                    next.append(versions[version])
                }
            }
        } else {
            // The launch may have moved the archive aside for the crash before it; nothing else changed.
            next = candidates
            if crashAllowed && !next.contains(initial) { next.append(initial) }
            uncheckedLaunches += 1
        }
        crashAllowed = (!launchChecked && crashAllowed) || (markerMayBePending && !inBackground)
        candidates = next
        launchChecked = false
        versions = []
        saves = []
        floor = 0
        uncheckedPhaseSaves = 0
        markerMayBePending = true
    }

    // MARK: Edits and saves

    /// The model's tree changed.
    mutating func treeChanged(to tree: ScreenTree) {
        guard launchChecked, tree != versions[newest] else { return }
        versions.append(tree)
    }

    /// An explicit save captured the current tree; returns the save's number.
    mutating func explicitSaveStarted() -> Int {
        saves.append(Save(first: newest, last: newest))
        return saves.count - 1
    }

    /// The explicit save with `number` returned without error.
    mutating func explicitSaveReturned(_ number: Int) {
        floor = Swift.max(floor, saves[number].first)
        markerMayBePending = false
    }

    /// A phase asked the model for a save.
    mutating func phaseSaveRequested() {
        if launchChecked {
            saves.append(Save(first: newest, last: nil))
        } else {
            uncheckedPhaseSaves += 1
        }
    }

    /// `savesFinished()` returned and no save failed: every save the phases asked
    /// for so far is done.
    mutating func phaseSavesFinished() {
        var finished = uncheckedPhaseSaves > 0
        uncheckedPhaseSaves = 0
        for index in saves.indices where saves[index].last == nil {
            saves[index].last = newest
            floor = Swift.max(floor, saves[index].first)
            finished = true
        }
        if finished { markerMayBePending = false }
    }

    /// The window showed its restored screens after the launch.
    mutating func interfaceAppeared() {
        markerMayBePending = false
    }
}
