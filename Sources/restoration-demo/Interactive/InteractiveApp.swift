import Foundation
import StateRestoration

/// `restoration-demo --interactive`: the shop app in the terminal.
///
/// The terminal is in raw mode: keys arrive as they are pressed and the app
/// redraws the whole screen after each. Ctrl-Z is the app entering the
/// background: it saves, then suspends like any terminal program; `fg` brings it
/// back. Kill it while suspended, start it again on the same directory, and it
/// comes back where it was. Quitting (`q`, Ctrl-Q, Ctrl-C) saves too.
///
/// Signals reach the main loop through a pipe (``SystemCalls/installSignalPipe()``):
/// saving is not something a signal handler may do.
enum InteractiveApp {
    /// `<caches>/restoration-demo`, or `$TMPDIR/restoration-demo` without a caches directory.
    static var defaultDirectory: URL {
        let caches = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first
        return (caches ?? FileManager.default.temporaryDirectory)
            .appendingPathComponent("restoration-demo", isDirectory: true)
    }

    static func run(directory: URL) async throws -> Int32 {
        guard SystemCalls.isInteractiveTerminal else {
            throw DemoError("--interactive needs a terminal; without one, run restoration-demo with no arguments")
        }
        let coordinator = RestorationCoordinator(
            screens: shopScreens, store: FileStore(directory: directory),
            configuration: RestorationConfiguration(appVersion: ShopApp.version))
        let session = try await coordinator.launch()
        var app = ShopApp(tree: session.tree)
        app.status =
            session.report.outcome == .restored
            ? "Restored \(session.report.restoredPaths.count) screens from \(directory.path)."
            : "Fresh start: \(session.report.freshReason?.message ?? "nothing to restore")."

        let signals = try SystemCalls.installSignalPipe()
        try SystemCalls.enterRawMode()
        SystemCalls.write(ScreenDrawing.enter)
        let saved: Result<SaveReport, any Error>
        do {
            saved = try await handleInput(&app, with: coordinator, directory: directory, signals: signals)
        } catch {
            SystemCalls.write(ScreenDrawing.leave)
            SystemCalls.leaveRawMode()
            throw error
        }
        SystemCalls.write(ScreenDrawing.leave)
        SystemCalls.leaveRawMode()
        switch saved {
        case .success(let report):
            SystemCalls.write("Saved \(report.savedPaths.count) nodes to \(directory.path);\n")
            SystemCalls.write("`restoration-demo --interactive` brings you back here.\n")
            return 0
        case .failure(let error):
            SystemCalls.write("Could not save: \(error)\n")
            return 1
        }
    }

    /// Reads keys and signals and redraws, until the user quits or the input
    /// ends; then saves.
    ///
    /// - Returns: The result of the save made on quitting.
    private static func handleInput(
        _ app: inout ShopApp, with coordinator: RestorationCoordinator<DefaultRestorationDelegate>, directory: URL,
        signals: Int32
    ) async throws -> Result<SaveReport, any Error> {
        var decoder = KeyDecoder()
        while true {
            SystemCalls.write(ScreenDrawing.frame(of: app))
            var keys: [Key] = []
            switch SystemCalls.waitForInput([0, signals], timeoutMilliseconds: decoder.isWaiting ? 40 : -1) {
            case .timedOut:
                keys = decoder.flush()
            case .readable(0):
                guard let bytes = SystemCalls.readAvailable(0) else { continue }
                if bytes.isEmpty {
                    return await save(app, with: coordinator)
                }
                keys = decoder.decode(bytes)
            default:
                for signal in SystemCalls.readAvailable(signals) ?? [] {
                    switch Int32(signal) {
                    case SystemCalls.suspendSignal:
                        try await suspend(&app, with: coordinator, directory: directory)
                    case SystemCalls.continueSignal:
                        try SystemCalls.enterRawMode()  // continued after a stop that was not Ctrl-Z
                        SystemCalls.write(ScreenDrawing.enter)
                    case SystemCalls.resizeSignal:
                        break
                    default:  // interrupted, terminated or hung up: quit, saving
                        return await save(app, with: coordinator)
                    }
                }
            }
            for key in keys {
                do {
                    if try app.handle(key) == .quit {
                        return await save(app, with: coordinator)
                    }
                } catch {
                    app.status = "\(error)"
                }
            }
        }
    }

    /// Saves the hierarchy through the coordinator.
    private static func save(
        _ app: ShopApp, with coordinator: RestorationCoordinator<DefaultRestorationDelegate>
    ) async -> Result<SaveReport, any Error> {
        do {
            return .success(try await coordinator.save(app.tree))
        } catch {
            return .failure(error)
        }
    }

    /// Ctrl-Z: the app enters the background. It saves, gives the terminal back
    /// as it found it, stops, and when continued takes the terminal again.
    private static func suspend(
        _ app: inout ShopApp, with coordinator: RestorationCoordinator<DefaultRestorationDelegate>, directory: URL
    ) async throws {
        let result = await save(app, with: coordinator)
        SystemCalls.write(ScreenDrawing.leave)
        SystemCalls.leaveRawMode()
        switch result {
        case .success(let report):
            SystemCalls.write(
                "Saved \(report.savedPaths.count) nodes (\(report.byteCount) bytes) to \(directory.path).\n")
            SystemCalls.write("Suspended: `fg` continues; or kill it and run `restoration-demo --interactive` again.\n")
        case .failure(let error):
            SystemCalls.write("Could not save: \(error). Suspended.\n")
        }
        SystemCalls.suspendProcess()
        try SystemCalls.enterRawMode()
        SystemCalls.write(ScreenDrawing.enter)
        app.status = "Back from the background."
    }
}
