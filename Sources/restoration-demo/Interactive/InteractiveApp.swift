import Foundation
import StateRestoration

/// `restoration-demo --interactive`: the shop app in the terminal, on a
/// ``RestorationModel``.
///
/// The terminal is the app's window (``TerminalScreen``): it draws the model,
/// and draws again whenever what it drew changes. Keys change the model through
/// its projections (``ShopApp``). Ctrl-Z is the app entering the background: the
/// model saves, then the app suspends like any terminal program; `fg` makes it
/// active again. Kill it while suspended, start it again on the same directory,
/// and it comes back where it was. Quitting (`q`, Ctrl-Q, Ctrl-C) saves too.
///
/// Keys and signals arrive as ``TerminalEvent``s: a signal handler only writes
/// the signal's number to a pipe (``SystemCalls/installSignalPipe()``), since
/// saving is not something a signal handler may do.
@MainActor
enum InteractiveApp {
    /// `<caches>/restoration-demo`, or `$TMPDIR/restoration-demo` without a caches directory.
    static var defaultDirectory: URL {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
        return (caches ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("restoration-demo", isDirectory: true)
    }

    /// Launches the app into its model, runs it until the user quits, and saves.
    ///
    /// - Returns: The exit status: 0 when the last save succeeded.
    static func run(directory: URL) async throws -> Int32 {
        guard SystemCalls.isInteractiveTerminal else {
            throw DemoError("--interactive needs a terminal; without one, run restoration-demo with no arguments")
        }
        let model = try RestorationModel(
            screens: shopScreens, store: FileStore(directory: directory),
            configuration: RestorationConfiguration(appVersion: ShopApp.version))
        let app = ShopApp(model: model)
        let launch = try await model.launch()
        app.status =
            launch.outcome == .restored
            ? "Restored \(launch.restoredPaths.count) screens from \(directory.path)."
            : "Fresh start: \(launch.freshReason?.message ?? "nothing to restore")."

        let (events, handled) = TerminalEvent.stream(signals: try SystemCalls.installSignalPipe())
        let screen = TerminalScreen(app: app)
        try screen.show()
        await model.restoredInterfaceDidAppear()  // the launched tree is on screen
        do {
            try await withThrowingTaskGroup { group in
                group.addTask { await screen.redrawOnChange() }
                try await handle(events, handled: handled, app: app, screen: screen, directory: directory)
                group.cancelAll()
            }
        } catch {
            screen.hide()
            throw error
        }

        model.handle(.terminate)
        await model.savesFinished()
        screen.hide()
        if let error = model.lastSaveError {
            SystemCalls.write("Could not save: \(error)\n")
            return 1
        }
        SystemCalls.write("Saved \(model.lastSaveReport?.savedPaths.count ?? 0) nodes to \(directory.path);\n")
        SystemCalls.write("`restoration-demo --interactive` brings you back here.\n")
        return 0
    }

    /// Takes the terminal's events until the user quits, a signal ends the app,
    /// or the input ends.
    private static func handle(
        _ events: AsyncStream<TerminalEvent>, handled: KeysHandled, app: ShopApp, screen: TerminalScreen,
        directory: URL
    ) async throws {
        for await event in events {
            switch event {
            case .keys(let keys):
                for key in keys {
                    if app.handle(key) == .quit { return }  // no more input read: the rest is the shell's
                }
                handled.next()
            case .signal(SystemCalls.suspendSignal):
                await suspend(app, screen: screen, directory: directory)
            case .signal(SystemCalls.continueSignal):  // after Ctrl-Z, or any other stop
                app.model.handle(.active)
                app.status = "Back from the background."
                try screen.show()
            case .signal(SystemCalls.resizeSignal):
                screen.draw()
            case .signal, .endOfInput:  // interrupted, terminated or hung up: quit, saving
                return
            }
        }
    }

    /// Ctrl-Z: the app enters the background. The model saves; once the save has
    /// ended, the app gives the terminal back and stops. It returns once continued.
    private static func suspend(_ app: ShopApp, screen: TerminalScreen, directory: URL) async {
        app.model.handle(.background)
        await app.model.savesFinished()
        screen.hide()
        if let error = app.model.lastSaveError {
            SystemCalls.write("Could not save: \(error). Suspended.\n")
        } else if let report = app.model.lastSaveReport {
            SystemCalls.write(
                "Saved \(report.savedPaths.count) nodes (\(report.byteCount) bytes) to \(directory.path).\n")
            SystemCalls.write("Suspended: `fg` continues; or kill it and run `restoration-demo --interactive` again.\n")
        }
        SystemCalls.suspendProcess()
    }
}
