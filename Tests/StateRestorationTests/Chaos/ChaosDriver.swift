import Foundation
import StateRestoration

/// Runs one seed's plan on the mail app: edits through the projections, phases,
/// saves, yields and kills, each process in a directory of its own, and checks
/// every launch against the windows' oracles.
///
/// A kill copies the store's directory as it is at that instant to a new one and
/// launches new models there; the old models are dropped (their tasks finish
/// against the old directory) and awaited at the end, before the directories go.
@MainActor
final class ChaosDriver {
    /// What a run found.
    struct Outcome {
        /// What went wrong, or nil.
        var failure: String?
        /// How many times a process was killed.
        var kills: Int
        /// How many of those kills landed while a launch was not yet checked.
        var killedLaunches: Int
    }

    /// The plan being run.
    let plan: ChaosPlan
    /// The directory holding every process's store directory.
    private let root: URL
    /// The running process.
    private var process: ChaosProcess
    /// The killed processes, whose tasks may still run.
    private var killed: [ChaosProcess] = []
    /// Each window's oracle, by window index.
    private var oracles: [ChaosOracle]
    /// The number of the running process; a task of an older one leaves the oracles alone.
    private var generation = 0
    /// Takes each line of the log as it is written: what each step did.
    private let log: (String) -> Void
    /// The step being run, for the log; 0 for the first launch and the final check.
    private var stepNumber = 0
    /// What went wrong first, or nil.
    private var failure: String?
    /// How many times a process was killed.
    private var kills = 0
    /// How many of those kills landed while a launch was not yet checked.
    private var killedLaunches = 0

    /// Runs a plan in a directory of its own in `folder`, and returns what it
    /// found; `log` takes each line of the log as it is written.
    static func run(_ plan: ChaosPlan, in folder: URL, log: @escaping (String) -> Void) async -> Outcome {
        let driver: ChaosDriver
        do {
            driver = try ChaosDriver(plan: plan, folder: folder, log: log)
        } catch {
            return Outcome(failure: "cannot set the run up: \(error)", kills: 0, killedLaunches: 0)
        }
        await driver.run()
        return Outcome(failure: driver.failure, kills: driver.kills, killedLaunches: driver.killedLaunches)
    }

    /// Makes the directories and the first process, not yet launched.
    private init(plan: ChaosPlan, folder: URL, log: @escaping (String) -> Void) throws {
        self.plan = plan
        self.log = log
        root = folder.appending(path: "seed-\(plan.seed)-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let initial = try ChaosMail.declaration.makeInitialTree()
        oracles = plan.windows.map { _ in ChaosOracle(initial: initial) }
        process = try Self.makeProcess(
            plan.layout, directory: root.appending(path: "p0"), delegateYields: plan.firstLaunch.delegateYields)
    }

    /// The first launch, the steps, a last kill and launch to check what the steps
    /// left, then the end of every process's tasks.
    private func run() async {
        await begin(plan.firstLaunch)
        for (index, step) in plan.steps.enumerated() where failure == nil {
            stepNumber = index + 1
            note("\(step)")
            await perform(step)
        }
        if failure == nil {
            stepNumber = 0
            note("final kill and launch")
            if let directory = await killProcess(settling: true) {
                await start(
                    ChaosLaunch(delegateYields: 0, launchYields: 0, ending: .awaited(appears: false)), in: directory)
            }
        }
        await finishEveryProcess()
        try? FileManager.default.removeItem(at: root)
    }

    // MARK: Steps

    /// Runs one step.
    private func perform(_ step: ChaosStep) async {
        switch step {
        case .push(let index, let screens):
            guard let model = await ready(index) else { return }
            let path = model.path(of: "inbox")
            let before = path.get()
            let entries = screens.map { screen in
                switch screen {
                case .thread(let id): ScreenEntry(ChaosMail.ThreadScreen(state: .init(threadID: id)))
                case .message(let id): ScreenEntry(ChaosMail.MessageScreen(state: .init(messageID: id)))
                }
            }
            edit(index, "\(before.count) → \(before.count + entries.count) screens above the mailbox") {
                try path.set(before + entries)
            }
        case .pop(let index, let keep):
            guard let model = await ready(index) else { return }
            let path = model.path(of: "inbox")
            let before = path.get()
            let kept = keep % (before.count + 1)
            edit(index, "\(before.count) → \(kept) screens above the mailbox") {
                try path.set(Array(before.prefix(kept)))
            }
        case .selectTab(let index, let tab):
            guard let model = await ready(index) else { return }
            let selection = model.selectedTab(in: "tabs")
            let window = process.windows[index]
            let current = selection.get()
            let next = tab ?? window.previousTab ?? ChaosMail.tab(after: current)
            if next != current { window.previousTab = current }
            edit(index, "\(current) → \(next)") { try selection.set(next) }
        case .present(let index, let to):
            guard let model = await ready(index) else { return }
            let sheet = model.presented(over: "inbox")
            let replaces = sheet.get() != nil
            edit(index, replaces ? "replaced the open draft" : "presented") {
                try sheet.set(ScreenEntry(ChaosMail.ComposeScreen(state: .init(to: to))))
            }
        case .dismiss(let index):
            guard let model = await ready(index) else { return }
            let sheet = model.presented(over: "inbox")
            guard sheet.get() != nil else { return note("nothing presented") }
            edit(index, "dismissed") { try sheet.set(nil) }
        case .type(let index, let text):
            guard let model = await ready(index) else { return }
            if let compose = model.presented(over: "inbox").get(),
                let draft = model.state(of: ChaosMail.ComposeScreen.self, at: compose.reference)
            {
                var state = draft.get()
                state.body += text
                edit(index, "typed into the draft") { try draft.set(state) }
            } else if let signature = model.state(of: ChaosMail.SettingsScreen.self, at: "settings") {
                var state = signature.get()
                state.signature += text
                edit(index, "typed into the signature") { try signature.set(state) }
            } else {
                fail("w\(index): neither a draft nor the signature to type into")
            }
        case .toggleCard(let index, let slot, let note):
            guard let model = await ready(index) else { return }
            let desk = model.children(of: "desk")
            let cards = desk.get()
            if let card = cards.first(where: { $0.identifier == slot }) {
                edit(index, "closed the card") { try desk.set(cards.filter { $0 != card }) }
            } else {
                let card = ScreenEntry(ChaosMail.CardScreen(state: .init(note: note)), as: slot)
                edit(index, "pinned a card") { try desk.set(cards + [card]) }
            }
        case .phase(let index, let choice):
            advancePhase(index, choice: choice)
        case .save(let index, let awaited):
            guard let model = await ready(index) else { return }
            if awaited {
                await save(index, model)
            } else {
                startSave(index, model)
            }
        case .peek(let index, let peek):
            guard let model = await ready(index) else { return }
            await self.peek(index, model, peek)
        case .savesFinished(let index):
            await finishSaves(index)
        case .yield(let count):
            for _ in 0..<count { await Task.yield() }
        case .interfaceAppeared(let index):
            guard let model = await ready(index) else { return }
            guard !process.windows[index].isInBackground else { return note("in the background: no interface") }
            await model.restoredInterfaceDidAppear()
            oracles[index].interfaceAppeared()
            note("w\(index): interface appeared")
        case .kill(let kill):
            var settling = kill.settles
            for launch in kill.launches {
                guard failure == nil, let directory = await killProcess(settling: settling) else { return }
                await start(launch, in: directory)
                // A launch killed in the background went there on purpose; one in the foreground has nothing to settle.
                settling = true
            }
        }
    }

    /// The window's model once its launch is checked; nil (and nothing to do) when
    /// the check failed or the window was terminated.
    private func ready(_ index: Int) async -> ChaosMail.Model? {
        let window = process.windows[index]
        guard !window.isTerminated else {
            note("w\(index) terminated: nothing happens until the kill")
            return nil
        }
        guard await checkLaunch(index) else { return nil }
        return window.model
    }

    /// Makes an edit through a projection and tells the oracle; a refusal is a failure.
    private func edit(_ index: Int, _ what: String, _ change: () throws -> Void) {
        do {
            try change()
        } catch {
            return fail("w\(index): the projection refused the edit: \(error)")
        }
        oracles[index].treeChanged(to: process.windows[index].model.tree)
        note("w\(index): \(what)")
    }

    /// An explicit save, told to the oracle when it captures and when it returns.
    private func save(_ index: Int, _ model: ChaosMail.Model) async {
        let generation = generation
        let number = oracles[index].explicitSaveStarted()
        do {
            try await model.save()
            guard generation == self.generation else { return }
            oracles[index].explicitSaveReturned(number)
            note("w\(index): save returned")
        } catch {
            guard generation == self.generation else { return }
            fail("w\(index): save() threw: \(error)")
        }
    }

    /// Starts an explicit save in a task nothing awaits.
    private func startSave(_ index: Int, _ model: ChaosMail.Model) {
        let generation = generation
        process.tasks.append(
            Task {
                guard generation == self.generation else {
                    _ = try? await model.save()  // the killed process goes on, against its own directory
                    return
                }
                await self.save(index, model)
            })
    }

    /// Opens what a peek opens, saves if it says so, and goes back.
    private func peek(_ index: Int, _ model: ChaosMail.Model, _ peek: ChaosPeek) async {
        let selection = model.selectedTab(in: "tabs")
        let tab = selection.get()
        let path = model.path(of: "inbox")
        let stack = path.get()
        let sheet = model.presented(over: "inbox")
        switch peek.target {
        case .tab:
            let next = ChaosMail.tab(after: tab)
            edit(index, "\(tab) → \(next)") { try selection.set(next) }
        case .thread(let id):
            let thread = ScreenEntry(ChaosMail.ThreadScreen(state: .init(threadID: id)))
            edit(index, "opened a thread") { try path.set(stack + [thread]) }
        case .compose:
            guard sheet.get() == nil else { return note("a draft is open already") }
            edit(index, "opened compose") { try sheet.set(ScreenEntry(ChaosMail.ComposeScreen())) }
        }
        switch peek.save {
        case .none:
            break
        case .awaited:
            await save(index, model)
        case .notAwaited:
            startSave(index, model)
            await Task.yield()  // the save captures the open tree before the user goes back
        }
        guard failure == nil else { return }
        switch peek.target {
        case .tab: edit(index, "back to \(tab)") { try selection.set(tab) }
        case .thread: edit(index, "back") { try path.set(stack) }
        case .compose: edit(index, "dismissed") { try sheet.set(nil) }
        }
    }

    /// Waits for the saves the window's phases started; tells the oracle they are done.
    private func finishSaves(_ index: Int) async {
        let window = process.windows[index]
        await window.model.savesFinished()
        if let error = window.model.lastSaveError {
            return fail("w\(index): a save failed: \(error)")
        }
        oracles[index].phaseSavesFinished()
        if window.isInBackground { window.backgroundSettled = true }
        note("w\(index): saves finished")
    }

    // MARK: Phases

    /// Moves a window to its next phase on a path SwiftUI takes: active → inactive
    /// → background or back to active; background → inactive → active, or terminate.
    private func advancePhase(_ index: Int, choice: Int) {
        let window = process.windows[index]
        let next: AppPhase
        switch window.model.phase {
        case nil, .active?: next = .inactive
        case .inactive?: next = window.isInBackground || choice.isMultiple(of: 3) ? .active : .background
        case .background?: next = choice.isMultiple(of: 4) ? .terminate : .inactive
        case .terminate?: return note("w\(index) terminated: no phase after it")
        }
        setPhase(index, next)
    }

    /// Gives a window a phase, and tells the oracle of the save it asks for.
    private func setPhase(_ index: Int, _ phase: AppPhase) {
        let window = process.windows[index]
        let previous = window.model.phase
        let asksForSave =
            switch phase {
            case .active: false
            case .inactive: previous != .background  // not on the way back in
            case .background, .terminate: true
            }
        let saves = asksForSave && window.model.isLaunched
        if saves { oracles[index].phaseSaveRequested() }
        window.model.handle(phase)
        switch phase {
        case .active, .background, .terminate:
            window.lastSignificantPhase = phase
            window.backgroundSettled = false
        case .inactive:
            break
        }
        note("w\(index) \(previous?.description ?? "no phase yet") → \(phase)\(saves ? ", saves" : "")")
    }

    /// Takes a window out of the foreground: inactive, then background.
    private func enterBackground(_ index: Int) {
        let window = process.windows[index]
        if window.model.phase == nil || window.model.phase == .active { setPhase(index, .inactive) }
        if !window.isInBackground { setPhase(index, .background) }
    }

    // MARK: Processes

    /// Makes a process's store and models over a directory.
    private static func makeProcess(
        _ layout: ChaosPlan.Layout, directory: URL, delegateYields: Int
    ) throws -> ChaosProcess {
        let store = ChaosStore(directory: directory)
        let delegate = ChaosMail.Delegate(yields: delegateYields)
        var windows: [ChaosWindow] = []
        switch layout {
        case .single, .keyed:
            for name in layout.windows {
                let configuration = RestorationConfiguration(storeKey: try StoreKey.validated(name))
                let model = try ChaosMail.Model(
                    screens: ChaosMail.declaration, store: store, delegate: delegate, configuration: configuration)
                windows.append(ChaosWindow(name: name, model: model))
            }
        case .scenes:
            let scenes = RestorationScenes(screens: ChaosMail.declaration, store: store, delegate: delegate)
            for name in layout.windows {
                windows.append(
                    ChaosWindow(name: name, model: try ChaosMail.Model(coordinator: scenes.coordinator(for: name))))
            }
        }
        return ChaosProcess(store: store, windows: windows)
    }

    /// Kills the running process: copies its directory to a new one and tells the
    /// oracles. With `settling`, a window in the background first finishes its
    /// background work, as before a suspension. Returns the new directory.
    private func killProcess(settling: Bool) async -> URL? {
        for (index, window) in process.windows.enumerated()
        where settling && window.isInBackground && !window.backgroundSettled {
            await finishSaves(index)
            for _ in 0..<8 { await Task.yield() }
        }
        guard failure == nil else { return nil }
        let directory = root.appending(path: "p\(generation + 1)")
        do {
            try process.store.copy(to: directory)
        } catch {
            fail("cannot copy the store's directory: \(error)")
            return nil
        }
        kills += 1
        if oracles.contains(where: { !$0.launchChecked }) { killedLaunches += 1 }
        for (index, window) in process.windows.enumerated() {
            oracles[index].killed(inBackground: window.isInBackground && window.backgroundSettled)
        }
        let places = process.windows.enumerated().map { "w\($0.offset) \($0.element.place)" }
        note("killed: \(places.joined(separator: ", "))")
        killed.append(process)
        generation += 1
        return directory
    }

    /// Starts a new process over `directory` and launches it as `launch` says.
    private func start(_ launch: ChaosLaunch, in directory: URL) async {
        do {
            process = try Self.makeProcess(plan.layout, directory: directory, delegateYields: launch.delegateYields)
        } catch {
            return fail("cannot make the process: \(error)")
        }
        await begin(launch)
    }

    /// Starts the running process's launches, yields, and ends as `launch` says.
    private func begin(_ launch: ChaosLaunch) async {
        for window in process.windows {
            let model = window.model
            window.launch = Task { try? await model.launch() }
        }
        for _ in 0..<launch.launchYields { await Task.yield() }
        switch launch.ending {
        case .awaited(let appears):
            for index in process.windows.indices {
                guard await checkLaunch(index) else { return }
                if appears {
                    await process.windows[index].model.restoredInterfaceDidAppear()
                    oracles[index].interfaceAppeared()
                    note("w\(index): interface appeared")
                }
            }
        case .pending, .killedInForeground:
            break
        case .killedInBackground:
            for index in process.windows.indices { enterBackground(index) }
        }
    }

    /// Awaits a window's launch if it was not checked yet, and checks it; false
    /// when the check failed.
    private func checkLaunch(_ index: Int) async -> Bool {
        let window = process.windows[index]
        guard let launch = window.launch else { return true }
        window.launch = nil
        guard let report = await launch.value else {
            fail("w\(index): launch() threw")
            return false
        }
        if let problem = oracles[index].check(report, tree: window.model.tree) {
            fail("w\(index) (\(window.name)): \(problem)")
            return false
        }
        note("w\(index) launched: \(report.outcome.rawValue)\(report.freshReason.map { ", \($0.code)" } ?? "")")
        return true
    }

    /// Waits until every process's launches, saves and tasks have ended.
    private func finishEveryProcess() async {
        for dead in killed + [process] {
            for task in dead.tasks { await task.value }
            for window in dead.windows {
                _ = await window.launch?.value
                await window.model.savesFinished()
            }
        }
    }

    // MARK: Log

    /// Adds a line to the log.
    private func note(_ line: String) {
        log(stepNumber == 0 ? "   \(line)" : "\(stepNumber). \(line)")
    }

    /// Records the first failure.
    private func fail(_ message: String) {
        note("FAILED: \(message.prefix { $0 != "\n" })")
        if failure == nil { failure = "\(stepNumber == 0 ? "at the end" : "at step \(stepNumber)"): \(message)" }
    }
}
