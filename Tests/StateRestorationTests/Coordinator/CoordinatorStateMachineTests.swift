import StateRestoration
import TestScreens
import Testing

/// The coordinator's decisions, transition by transition, without actors: waiters are
/// numbers, trees are told apart by their search query.
@Suite struct CoordinatorStateMachineTests {
    private typealias Machine = CoordinatorStateMachine<Int>

    private func tree(_ query: String) throws -> ScreenTree {
        var tree = try Shop.declaration().makeInitialTree()
        try tree.update(SearchScreen.self, at: "search#0") { $0.state.query = query }
        return tree
    }

    private func query(_ tree: ScreenTree) -> String? {
        tree.screen(SearchScreen.self, at: "search#0")?.state.query
    }

    /// What a save's turn decided, as text: `write <ticket> <query>`, `covered`, `refused <code>`.
    private func describe(_ action: Machine.SaveAction) -> String {
        switch action {
        case .write(let ticket, let tree): "write \(ticket) \(query(tree) ?? "?")"
        case .returnResult: "covered"
        case .refuse(let ticket, let error): "refused \(ticket) \(error.code)"
        }
    }

    @Test("turns go first come first served; the last one out frees the turn")
    func turns() {
        var machine = Machine()
        #expect(machine.takeTurn() == .proceed)
        #expect(machine.takeTurn() == .wait)
        machine.enqueue(2)
        #expect(machine.takeTurn() == .wait)
        machine.enqueue(3)
        #expect(machine.waitingCount == 2)
        #expect(machine.passTurn() == 2)
        #expect(machine.passTurn() == 3)
        #expect(machine.passTurn() == nil)
        #expect(machine.takeTurn() == .proceed)
    }

    @Test("saves requested while one waits coalesce: the first turn writes the newest tree, the rest are covered")
    func coalescing() throws {
        var machine = Machine()
        let first = machine.requestSave(try tree("a"))
        let second = machine.requestSave(try tree("b"))
        let third = machine.requestSave(try tree("c"))
        #expect(describe(machine.saveTurn(ticket: first, tree: try tree("a"))) == "write 3 c")
        machine.saveFinished(ticket: 3, result: .success(SaveReport(saved: true)))
        #expect(describe(machine.saveTurn(ticket: second, tree: try tree("b"))) == "covered")
        #expect(describe(machine.saveTurn(ticket: third, tree: try tree("c"))) == "covered")
    }

    @Test("a save requested before a discard writes its own tree; the one after it writes after the discard")
    func discardBetweenSaves() throws {
        var machine = Machine()
        let before = machine.requestSave(try tree("before"))
        let discard = machine.requestDiscard()
        let after = machine.requestSave(try tree("after"))
        #expect(describe(machine.saveTurn(ticket: before, tree: try tree("before"))) == "write 1 before")
        machine.saveFinished(ticket: before, result: .success(SaveReport(saved: true)))
        machine.discardTurn(ticket: discard)
        #expect(describe(machine.saveTurn(ticket: after, tree: try tree("after"))) == "write 3 after")
    }

    @Test("after a handover, a tree made before it is refused and one made after it is written")
    func treesPredatingTheHandover() throws {
        var machine = Machine()
        let old = try tree("old")
        let handedOver = try tree("restored")
        machine.handedOver(root: handedOver.root.id)
        let refused = machine.requestSave(old)
        #expect(describe(machine.saveTurn(ticket: refused, tree: old)) == "refused 1 tree-predates-launch")
        machine.saveFinished(ticket: refused, result: .failure(RestorationError(.treePredatesLaunch, message: "")))
        let written = machine.requestSave(handedOver)
        #expect(describe(machine.saveTurn(ticket: written, tree: handedOver)) == "write 2 restored")
        let later = try tree("later")
        let newer = machine.requestSave(later)
        #expect(describe(machine.saveTurn(ticket: newer, tree: later)) == "write 3 later")
    }

    @Test("a tree older than the handover, requested last, is refused alone; the request before it writes")
    func staleNewestDoesNotCancelEarlier() throws {
        var machine = Machine()
        let old = try tree("old")
        let current = try tree("current")
        machine.handedOver(root: current.root.id)
        let valid = machine.requestSave(current)
        let stale = machine.requestSave(old)
        #expect(describe(machine.saveTurn(ticket: valid, tree: current)) == "write 1 current")
        machine.saveFinished(ticket: valid, result: .success(SaveReport(saved: true)))
        #expect(describe(machine.saveTurn(ticket: stale, tree: old)) == "refused 2 tree-predates-launch")
    }

    /// One line of the marker's table: what happened, then the event asked about.
    struct MarkerCase: CustomTestStringConvertible, Sendable {
        enum Step: Sendable { case written, handedOver, handedOverFresh, removed }
        enum Event: Sendable { case interfaceAppeared, saveWillWrite, launchCompleted(interfaceIsUp: Bool) }
        let steps: [Step]
        let event: Event
        let expected: CoordinatorStateMachine<Int>.MarkerAction
        var testDescription: String { "\(steps) then \(event): \(expected)" }
    }

    @Test(
        "the marker goes once the tree was handed over and the interface is up, a save writes, or a launch without interface ends",
        arguments: [
            MarkerCase(steps: [.written], event: .interfaceAppeared, expected: .keep),
            MarkerCase(steps: [.written], event: .saveWillWrite, expected: .keep),
            MarkerCase(steps: [.written, .handedOver], event: .interfaceAppeared, expected: .remove),
            MarkerCase(steps: [.written, .handedOver], event: .saveWillWrite, expected: .remove),
            MarkerCase(steps: [.written, .handedOver], event: .launchCompleted(interfaceIsUp: false), expected: .keep),
            MarkerCase(
                steps: [.written, .handedOver], event: .launchCompleted(interfaceIsUp: true), expected: .remove),
            MarkerCase(steps: [.handedOver], event: .interfaceAppeared, expected: .keep),
            MarkerCase(steps: [.written, .handedOverFresh, .removed], event: .interfaceAppeared, expected: .keep),
            MarkerCase(steps: [.written, .handedOver, .removed], event: .saveWillWrite, expected: .keep),
        ])
    func marker(_ line: MarkerCase) throws {
        var machine = Machine()
        let root = try tree("restored").root.id
        for step in line.steps {
            switch step {
            case .written: machine.markerWritten()
            case .handedOver: #expect(machine.handedOver(root: root) == .keep)
            case .handedOverFresh: #expect(machine.handedOver(root: root, restored: false) == .remove)
            case .removed: machine.markerRemoved()
            }
        }
        let action: Machine.MarkerAction
        switch line.event {
        case .interfaceAppeared: action = machine.interfaceAppeared()
        case .saveWillWrite: action = machine.saveWillWrite()
        case .launchCompleted(let interfaceIsUp): action = machine.launchCompleted(interfaceIsUp: interfaceIsUp)
        }
        #expect(action == line.expected)
    }
}
