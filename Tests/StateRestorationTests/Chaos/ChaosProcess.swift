import StateRestoration

/// One simulated process: its store and its windows.
@MainActor
final class ChaosProcess {
    /// The store over the process's directory.
    let store: ChaosStore
    /// The windows.
    let windows: [ChaosWindow]
    /// Saves started in tasks nothing awaits.
    var tasks: [Task<Void, Never>] = []

    /// Creates a process.
    init(store: ChaosStore, windows: [ChaosWindow]) {
        self.store = store
        self.windows = windows
    }
}

/// One window of a process: its model, its launch and where it is in its phases.
@MainActor
final class ChaosWindow {
    /// The window's identifier.
    let name: String
    /// The window's model.
    let model: ChaosMail.Model
    /// The launch, until the driver awaited and checked it.
    var launch: Task<LaunchReport?, Never>?
    /// The last of active, background and terminate the window was given; active at launch.
    var lastSignificantPhase = AppPhase.active
    /// Whether `savesFinished()` returned since the window last went to the background.
    var backgroundSettled = false
    /// The tab selected before the current one, once a step changed tabs.
    var previousTab: String?

    /// Creates a window.
    init(name: String, model: ChaosMail.Model) {
        self.name = name
        self.model = model
    }

    /// Whether the window is out of the foreground (inactive on the way back in included).
    var isInBackground: Bool { lastSignificantPhase != .active }

    /// Where the window is, for the log: in the foreground, or in the background and settled or not.
    var place: String {
        guard isInBackground else { return "in the foreground" }
        return backgroundSettled ? "in the background, settled" : "in the background"
    }

    /// Whether the window was terminated.
    var isTerminated: Bool { lastSignificantPhase == .terminate }
}
