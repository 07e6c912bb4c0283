import Foundation
import StateRestoration

/// The shop app as a child process of the scripted session, driven through its
/// standard input by a line protocol (`restoration-demo --app-process DIR`, a
/// hidden mode).
///
/// It launches into its ``RestorationModel`` (restoring what `DIR` holds), as an
/// app launches into the object its UI observes, says its interface is up,
/// writes each of the launch's log events as `log <level> <event>`, then `ready
/// <pid> <outcome>`. Then, one command per line, each answered by `ok` (or
/// `error <message>`):
///
/// - `type <text>`: types the text, one key per character;
/// - `press <key>`: presses `up`, `down`, `left`, `right`, `enter`, `escape`, …;
/// - `show`: writes the hierarchy as `line <text>` (short) and `full <text>`
///   (``ScreenTree/description``) lines;
/// - `background`: the app enters the background: the model saves
///   (``RestorationModel/handle(_:)``), and once the save has ended the app
///   writes the hierarchy it saved, then `saved <nodes> <bytes> <milliseconds>`.
///
/// It exits when its input ends.
@MainActor
enum AppProcess {
    static func run(directory: URL) async throws -> Int32 {
        let logHandler = ClosureLogHandler { event in
            emit("log \(event.level) \(event.description)")
        }
        let model = try RestorationModel(
            screens: shopScreens, store: FileStore(directory: directory),
            configuration: RestorationConfiguration(appVersion: ShopApp.version, logHandler: logHandler))
        let app = ShopApp(model: model)
        let report = try await model.launch()
        await model.restoredInterfaceDidAppear()
        emit("ready \(ProcessInfo.processInfo.processIdentifier) \(report.outcome.rawValue)")

        while let line = readLine() {
            let (command, argument) = split(line)
            do {
                switch command {
                case "type":
                    for character in argument { try press(.character(character), in: app) }
                case "press":
                    guard let key = Key(name: argument) else { throw DemoError("no key named \(argument)") }
                    try press(key, in: app)
                case "show":
                    emitHierarchy(model.tree)
                case "background":
                    let start = ContinuousClock.now
                    model.handle(.background)
                    await model.savesFinished()
                    let elapsed = ContinuousClock.now - start
                    if let error = model.lastSaveError { throw error }
                    guard let report = model.lastSaveReport else { throw DemoError("the model saved nothing") }
                    emitHierarchy(model.tree)
                    emit("saved \(report.savedPaths.count) \(report.byteCount) \(elapsed.demoMilliseconds)")
                default:
                    throw DemoError("unknown command \(command)")
                }
                emit("ok")
            } catch {
                emit("error \(String(describing: error).replacingOccurrences(of: "\n", with: " "))")
            }
        }
        return 0
    }

    /// Presses a key in the app.
    ///
    /// - Throws: The ``HierarchyError`` of a change the model refused.
    private static func press(_ key: Key, in app: ShopApp) throws(HierarchyError) {
        if case .refused(let error) = app.handle(key) { throw error }
    }

    /// The hierarchy, short and in full.
    private static func emitHierarchy(_ tree: ScreenTree) {
        for line in HierarchyLines.lines(of: tree) { emit("line \(line)") }
        for line in tree.description.split(separator: "\n") { emit("full \(line)") }
    }

    /// `"type oat milk"` → `("type", "oat milk")`.
    private static func split(_ line: String) -> (String, String) {
        guard let space = line.firstIndex(of: " ") else { return (line, "") }
        return (String(line[..<space]), String(line[line.index(after: space)...]))
    }

    /// Writes one line to standard output at once, unbuffered: the parent reads
    /// it while this process runs, and may kill it at any moment after.
    private nonisolated static func emit(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

extension Duration {
    /// `1.32 ms`.
    var demoMilliseconds: String {
        let micros = Double(components.seconds) * 1_000_000 + Double(components.attoseconds) / 1e12
        let hundredths = Int((micros / 10).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction) ms"
    }
}
