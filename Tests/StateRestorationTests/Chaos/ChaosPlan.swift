/// The steps of one seed's chaos run, every random choice drawn from the seed up
/// front, so that the same seed replays the same steps.
///
/// A step says what the user, the system or the app does; the driver applies it
/// to the state it finds (pops to `keep` modulo the stack's height, types into
/// the draft if one is open, and so on).
struct ChaosPlan: Sendable {
    /// The seed the plan was drawn from.
    let seed: UInt64
    /// How the windows are made.
    let layout: Layout
    /// The windows' identifiers.
    let windows: [String]
    /// How the first process launches.
    let firstLaunch: ChaosLaunch
    /// The steps, in order.
    let steps: [ChaosStep]

    /// Draws a plan of `stepCount` steps from `seed`.
    init(seed: UInt64, stepCount: Int) {
        var random = SplitMix64(state: seed)
        self.seed = seed
        switch Int.random(in: 0..<12, using: &random) {
        case 0..<7: layout = .single
        case 7..<11: layout = .scenes
        default: layout = .keyed
        }
        windows = layout.windows
        firstLaunch = ChaosLaunch(random: &random, ending: .awaited(appears: true))
        var steps: [ChaosStep] = []
        for _ in 0..<stepCount {
            steps.append(ChaosStep(random: &random, windows: windows.count))
        }
        self.steps = steps
    }

    /// How the windows are made.
    enum Layout: Sendable {
        /// One window, `main`, on a model with a coordinator of its own.
        case single
        /// Two windows, `left` and `right`, whose coordinators come from `RestorationScenes`.
        case scenes
        /// Two windows on models with coordinators of their own, in one directory under two
        /// store keys of 95 characters that differ only in their last: their markers' keys
        /// take the hashed form, and share the first 73 characters.
        case keyed

        /// The windows' identifiers (store keys for `keyed`).
        var windows: [String] {
            switch self {
            case .single: ["main"]
            case .scenes: ["left", "right"]
            case .keyed: [String(repeating: "w", count: 94) + "a", String(repeating: "w", count: 94) + "b"]
            }
        }
    }

    /// The plan, one line per step, to print before it runs.
    var lines: [String] {
        ["windows \(windows.joined(separator: ", ")) (\(layout)); first launch: \(firstLaunch)"]
            + steps.enumerated().map { "\($0.offset + 1). \($0.element)" }
    }
}

/// One step of a chaos run.
enum ChaosStep: Sendable, CustomStringConvertible {
    /// Opens screens on the inbox stack, all at once (`path(of:)`).
    case push(window: Int, screens: [ChaosPushedScreen])
    /// Goes back on the inbox stack, keeping `keep` modulo (height + 1) pushed screens.
    case pop(window: Int, keep: Int)
    /// Selects a tab (`selectedTab(in:)`): a named one, or nil for the one selected
    /// before the current one (the next one if none was), as a user flips between two tabs.
    case selectTab(window: Int, tab: String?)
    /// Presents the compose sheet over the inbox (`presented(over:)`).
    case present(window: Int, to: String)
    /// Dismisses the compose sheet.
    case dismiss(window: Int)
    /// Types into the compose draft if it is open, else into the signature (`state(of:at:)`).
    case type(window: Int, text: String)
    /// Closes the desk's card in `slot`, or pins one there if it is empty (`children(of:)`).
    case toggleCard(window: Int, slot: String, note: String)
    /// Opens something and goes back from it, the app perhaps saving in between.
    case peek(window: Int, ChaosPeek)
    /// Moves the window to its next phase along a path SwiftUI takes; `choice` picks the branch.
    case phase(window: Int, choice: Int)
    /// Saves explicitly: awaited, or started in a task that nothing awaits.
    case save(window: Int, awaited: Bool)
    /// Waits for the saves the phases started.
    case savesFinished(window: Int)
    /// Yields the main actor a number of times.
    case yield(Int)
    /// The window shows its restored screens (`restoredInterfaceDidAppear()`).
    case interfaceAppeared(window: Int)
    /// Kills the process and launches it again, perhaps killing the launch again.
    case kill(ChaosKill)

    /// Draws a step.
    init(random: inout SplitMix64, windows: Int) {
        let window = Int.random(in: 0..<windows, using: &random)
        func text() -> String { String(Int.random(in: 0..<1000, using: &random)) }
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<8:
            let count = Int.random(in: 1...4, using: &random)
            self = .push(window: window, screens: (0..<count).map { _ in ChaosPushedScreen(random: &random) })
        case 8..<13: self = .pop(window: window, keep: Int.random(in: 0..<5, using: &random))
        case 13..<21:
            let tab = Bool.random(using: &random) ? nil : ChaosMail.tabs.randomElement(using: &random)
            self = .selectTab(window: window, tab: tab)
        case 21..<24: self = .present(window: window, to: "friend\(text())@example.com")
        case 24..<27: self = .dismiss(window: window)
        case 27..<32: self = .type(window: window, text: " w\(text())")
        case 32..<36:
            self = .toggleCard(
                window: window, slot: ChaosMail.deskSlots.randomElement(using: &random) ?? "pinned", note: "n\(text())")
        case 36..<42: self = .peek(window: window, ChaosPeek(random: &random))
        case 42..<60: self = .phase(window: window, choice: Int.random(in: 0..<12, using: &random))
        case 60..<70: self = .save(window: window, awaited: Bool.random(using: &random))
        case 70..<76: self = .savesFinished(window: window)
        case 76..<84: self = .yield(Int.random(in: 1...12, using: &random))
        case 84..<90: self = .interfaceAppeared(window: window)
        default: self = .kill(ChaosKill(random: &random))
        }
    }

    /// The step, as one line of a plan.
    var description: String {
        switch self {
        case .push(let window, let screens):
            "w\(window) push \(screens.map(\.description).joined(separator: ", "))"
        case .pop(let window, let keep): "w\(window) pop, keeping \(keep) modulo the height"
        case .selectTab(let window, let tab): "w\(window) select tab \(tab ?? "selected before")"
        case .present(let window, let to): "w\(window) present compose to \(to)"
        case .dismiss(let window): "w\(window) dismiss compose"
        case .type(let window, let text): "w\(window) type \"\(text)\""
        case .toggleCard(let window, let slot, let note): "w\(window) toggle card \(slot) (\(note))"
        case .peek(let window, let peek): "w\(window) peek: \(peek)"
        case .phase(let window, let choice): "w\(window) next phase (choice \(choice))"
        case .save(let window, let awaited): "w\(window) save\(awaited ? "" : ", not awaited")"
        case .savesFinished(let window): "w\(window) await savesFinished()"
        case .yield(let count): "yield \(count) times"
        case .interfaceAppeared(let window): "w\(window) restoredInterfaceDidAppear()"
        case .kill(let kill): "kill: \(kill)"
        }
    }
}

/// A screen a push step opens.
enum ChaosPushedScreen: Sendable, CustomStringConvertible {
    /// A thread.
    case thread(String)
    /// A message.
    case message(String)

    /// Draws a screen.
    init(random: inout SplitMix64) {
        let number = Int.random(in: 0..<100, using: &random)
        self = Bool.random(using: &random) ? .thread("t\(number)") : .message("m\(number)")
    }

    /// `thread t12` or `message m3`.
    var description: String {
        switch self {
        case .thread(let id): "thread \(id)"
        case .message(let id): "message \(id)"
        }
    }
}

/// A look the user takes and takes back (another tab, a thread, the compose
/// sheet), while which the app may save: the tree comes back to what it was.
struct ChaosPeek: Sendable, CustomStringConvertible {
    /// What the user opens.
    enum Target: Sendable {
        /// The next tab, then back.
        case tab
        /// A thread pushed onto the inbox, then popped.
        case thread(String)
        /// The compose sheet, when none is open, then dismissed.
        case compose
    }

    /// Whether the app saves while it is open.
    enum Save: Sendable {
        /// It does not.
        case none
        /// It saves and the step awaits the save.
        case awaited
        /// It starts a save that nothing awaits.
        case notAwaited
    }

    /// What the user opens.
    let target: Target
    /// Whether the app saves meanwhile.
    let save: Save

    /// Draws a peek.
    init(random: inout SplitMix64) {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: target = .tab
        case 1: target = .thread("t\(Int.random(in: 0..<100, using: &random))")
        default: target = .compose
        }
        save = [Save.none, .awaited, .notAwaited].randomElement(using: &random) ?? .none
    }

    /// `thread t3, saved meanwhile`.
    var description: String {
        let what =
            switch target {
            case .tab: "the next tab"
            case .thread(let id): "thread \(id)"
            case .compose: "compose"
            }
        switch save {
        case .none: return what
        case .awaited: return what + ", saved meanwhile"
        case .notAwaited: return what + ", a save started meanwhile"
        }
    }
}

/// A kill and the launches after it: each but the last is killed in turn.
struct ChaosKill: Sendable, CustomStringConvertible {
    /// Whether a window in the background has its background work finished before
    /// the kill, as when the system suspends the app before ending it.
    let settles: Bool
    /// The launches, in order.
    let launches: [ChaosLaunch]

    /// Draws a kill.
    init(random: inout SplitMix64) {
        settles = Int.random(in: 0..<4, using: &random) != 0
        var launches: [ChaosLaunch] = []
        while launches.count < 3 {
            let roll = Int.random(in: 0..<10, using: &random)
            let ending: ChaosLaunch.Ending
            switch roll {
            case 0..<2: ending = .killedInForeground
            case 2..<4: ending = .killedInBackground
            case 4..<7: ending = .awaited(appears: Bool.random(using: &random))
            default: ending = .pending
            }
            launches.append(ChaosLaunch(random: &random, ending: ending))
            if !ending.kills { break }
        }
        if let last = launches.last, last.ending.kills {
            launches.append(ChaosLaunch(random: &random, ending: .pending))
        }
        self.launches = launches
    }

    /// `settled; launch slow 3, yield 5, killed in the background; …`.
    var description: String {
        "\(settles ? "settled" : "unsettled"); " + launches.map(\.description).joined(separator: "; ")
    }
}

/// One launch of a process: how slow its delegate is, how long the driver yields
/// after starting it, and how it ends.
struct ChaosLaunch: Sendable, CustomStringConvertible {
    /// How a launch ends.
    enum Ending: Sendable, Equatable {
        /// The driver awaits it, then the window may show its screens.
        case awaited(appears: Bool)
        /// It stays under way; the next step that needs the window awaits it.
        case pending
        /// The process is killed, the launch perhaps under way, in the foreground.
        case killedInForeground
        /// The windows go inactive then to the background, and the process is killed.
        case killedInBackground

        /// Whether the process is killed.
        var kills: Bool { self == .killedInForeground || self == .killedInBackground }
    }

    /// How many times each callback of the delegate yields.
    let delegateYields: Int
    /// How many times the driver yields after starting the launch.
    let launchYields: Int
    /// How it ends.
    let ending: Ending

    /// Creates a launch.
    init(delegateYields: Int, launchYields: Int, ending: Ending) {
        self.delegateYields = delegateYields
        self.launchYields = launchYields
        self.ending = ending
    }

    /// Draws a launch that ends with `ending`.
    init(random: inout SplitMix64, ending: Ending) {
        delegateYields = Bool.random(using: &random) ? 0 : Int.random(in: 1...8, using: &random)
        launchYields = Int.random(in: 0...10, using: &random)
        self.ending = ending
    }

    /// `launch slow 3, yield 5, killed in the background`.
    var description: String {
        let end =
            switch ending {
            case .awaited(let appears): appears ? "awaited, interface appears" : "awaited"
            case .pending: "left under way"
            case .killedInForeground: "killed in the foreground"
            case .killedInBackground: "killed in the background"
            }
        return "launch slow \(delegateYields), yield \(launchYields), \(end)"
    }
}
