/// What a ``RestorationCoordinator`` decides, without doing any of it: whose turn it is,
/// which tree a save writes, whether a tree may be written at all, and when the crash-loop
/// marker goes.
///
/// Each transition is a `mutating` function that returns what the coordinator must do next
/// (resume a waiter, write a tree, return an earlier save's result, remove the marker), so
/// the rules are tested synchronously, without actors or tasks. The coordinator, an actor,
/// owns one and carries the actions out. `Waiter` is what the coordinator resumes when a turn
/// comes (a continuation there, a number in tests).
///
/// The rules:
/// - A launch's first phase, each save and each discard take turns, first come first
///   served; the extensions of a launch run outside any turn.
/// - Saves coalesce: when a save's turn comes, it writes the newest tree requested so far,
///   and every request that newest one covers returns that save's result, unless a discard
///   was requested between them, in which case the save writes its own tree (no save
///   requested before a discard writes a tree requested after it).
/// - A tree made before the tree the latest launch handed over is never written.
/// - The marker a launch wrote stays until the launch has handed its tree over and then
///   the interface is reported up, a save is about to write, or (a launch without an
///   interface) the launch completed; a launch that restored nothing removes it at the
///   handover.
package struct CoordinatorStateMachine<Waiter> {
    /// Creates a machine with the turn free, no save made and no marker.
    package init() {}

    /// Whether a launch, a save or a discard holds the turn.
    private var isBusy = false
    /// Those waiting for their turn, in the order they asked.
    private var waiters: [Waiter] = []
    /// Tickets handed to save and discard requests, in the order they arrived.
    private var lastTicket = 0
    /// The newest save requested and not yet written or covered: its ticket and tree.
    private var newestSave: (ticket: Int, tree: ScreenTree)?
    /// The tickets of discards waiting for their turn.
    private var pendingDiscards: [Int] = []
    /// The newest save performed: the ticket whose tree it wrote, and its result.
    private var lastSave: (ticket: Int, result: Result<SaveReport, any Error>)?
    /// The root of the tree the latest launch handed over.
    package private(set) var handedOverRoot: ScreenNode.ID?
    /// Where this coordinator's crash-loop marker is.
    package private(set) var marker = Marker.none

    /// Where the crash-loop marker of the coordinator's launch is.
    package enum Marker: Equatable {
        /// No marker of this coordinator's is pending.
        case none
        /// Written before decoding; the launch has not handed its tree over yet.
        case restoring
        /// The tree was handed over; the marker goes when the interface is up, at the next
        /// save, or when a launch without an interface completes.
        case handedOver
    }

    // MARK: Turns

    /// What a request for the turn does.
    package enum Turn: Equatable {
        /// The turn is free: it is the caller's now.
        case proceed
        /// Another holds it: the caller enqueues its waiter (``enqueue(_:)``) and waits.
        case wait
    }

    /// Asks for the turn.
    package mutating func takeTurn() -> Turn {
        guard isBusy else {
            isBusy = true
            return .proceed
        }
        return .wait
    }

    /// Puts a waiter in line, after ``takeTurn()`` said to wait.
    package mutating func enqueue(_ waiter: Waiter) {
        waiters.append(waiter)
    }

    /// Gives the turn up: returns the waiter to resume, who holds the turn now, or nil when
    /// nobody waits and the turn is free.
    package mutating func passTurn() -> Waiter? {
        guard !waiters.isEmpty else {
            isBusy = false
            return nil
        }
        return waiters.removeFirst()
    }

    /// How many wait for the turn.
    package var waitingCount: Int { waiters.count }

    // MARK: Saves and discards

    /// Records a save request, before it waits for its turn; returns its ticket.
    package mutating func requestSave(_ tree: ScreenTree) -> Int {
        lastTicket += 1
        newestSave = (lastTicket, tree)
        return lastTicket
    }

    /// What a save does when its turn comes.
    package enum SaveAction {
        /// A newer request's save covered this one: return its result.
        case returnResult(Result<SaveReport, any Error>)
        /// Write this tree; report the result with ``saveFinished(ticket:result:)`` and this
        /// ticket.
        case write(ticket: Int, tree: ScreenTree)
        /// Write nothing: the tree predates the latest launch's. Report the error with
        /// ``saveFinished(ticket:result:)`` and this ticket too.
        case refuse(ticket: Int, RestorationError)
    }

    /// The save with `ticket`, which asked to write `tree`, has the turn.
    package mutating func saveTurn(ticket: Int, tree: ScreenTree) -> SaveAction {
        if let lastSave, lastSave.ticket >= ticket { return .returnResult(lastSave.result) }
        guard let newest = newestSave else { preconditionFailure("a save request left no tree to save") }
        // The newest tree covers this request, unless a discard was requested between the two
        // (the newest is written after it), or the newest is too old to write (its own turn
        // refuses it): then this request writes its own tree.
        let written: (ticket: Int, tree: ScreenTree)
        if pendingDiscards.contains(where: { $0 > ticket && $0 < newest.ticket }) || predatesHandover(newest.tree) {
            written = (ticket, tree)
            if newest.ticket == ticket { newestSave = nil }
        } else {
            written = newest
            newestSave = nil
        }
        if predatesHandover(written.tree) {
            return .refuse(
                ticket: written.ticket,
                RestorationError(
                    .treePredatesLaunch,
                    message:
                        "not saved: the tree was made before the launch handed over the restored one, and would replace the archive being restored with an older hierarchy; save the tree the launch handed over"
                ))
        }
        return .write(ticket: written.ticket, tree: written.tree)
    }

    /// Whether `tree` was made before the tree the latest launch handed over.
    private func predatesHandover(_ tree: ScreenTree) -> Bool {
        guard let handedOverRoot else { return false }
        return tree.root.id < handedOverRoot
    }

    /// Whether a launch has handed a tree over: a save from a host before then would write the
    /// host's initial tree over the archive the launch is about to restore.
    package var hasHandedOver: Bool { handedOverRoot != nil }

    /// The save that wrote (or refused) the tree of `ticket` ended with `result`.
    package mutating func saveFinished(ticket: Int, result: Result<SaveReport, any Error>) {
        lastSave = (ticket, result)
    }

    /// Records a discard request, before it waits for its turn; returns its ticket.
    package mutating func requestDiscard() -> Int {
        lastTicket += 1
        pendingDiscards.append(lastTicket)
        return lastTicket
    }

    /// The discard with `ticket` has the turn.
    package mutating func discardTurn(ticket: Int) {
        pendingDiscards.removeAll { $0 == ticket }
    }

    // MARK: The launch and its marker

    /// The launch wrote its marker, before decoding.
    package mutating func markerWritten() {
        marker = .restoring
    }

    /// The marker is gone (removed, or never this coordinator's to remove).
    package mutating func markerRemoved() {
        marker = .none
    }

    /// The launch handed over the tree whose root is `root`: from now on an older tree is
    /// never written. A launch that restored nothing removes its marker now: building the
    /// interface cannot crash on an archive that was not restored.
    ///
    /// - Parameters:
    ///   - root: The handed-over tree's root.
    ///   - restored: Whether the launch restored the archive.
    @discardableResult
    package mutating func handedOver(root: ScreenNode.ID, restored: Bool = true) -> MarkerAction {
        handedOverRoot = root
        guard marker == .restoring else { return .keep }
        marker = .handedOver
        return restored ? .keep : .remove
    }

    /// Whether the marker goes now.
    package enum MarkerAction: Equatable {
        /// Remove it.
        case remove
        /// Leave it.
        case keep
    }

    /// The app says its restored interface is up.
    package func interfaceAppeared() -> MarkerAction {
        marker == .handedOver ? .remove : .keep
    }

    /// A save is about to write a new archive.
    package func saveWillWrite() -> MarkerAction {
        marker == .handedOver ? .remove : .keep
    }

    /// The launch's extensions ended; `interfaceIsUp` for a launch without an interface,
    /// which takes that moment for the interface being up.
    package func launchCompleted(interfaceIsUp: Bool) -> MarkerAction {
        interfaceIsUp && marker == .handedOver ? .remove : .keep
    }
}
