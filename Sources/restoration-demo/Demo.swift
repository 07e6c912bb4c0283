import Foundation
import StateRestoration

/// Saves a shop app's hierarchy, relaunches itself as a new process that
/// restores it, and compares what came back with what was saved.
///
/// `restoration-demo` runs the whole scenario; `restoration-demo --restore DIR`
/// is the relaunched process, which prints the restored hierarchy.
@main
struct Demo {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            if arguments.first == "--restore", arguments.count == 2 {
                try await restore(from: URL(fileURLWithPath: arguments[1]))
            } else if arguments.isEmpty {
                exit(try await runScenario())
            } else {
                FileHandle.standardError.write(Data("usage: restoration-demo [--restore DIRECTORY]\n".utf8))
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("restoration-demo: \(error)\n".utf8))
            exit(1)
        }
    }

    /// The relaunched process: restore and print the hierarchy.
    static func restore(from directory: URL) async throws {
        let coordinator = RestorationCoordinator(screens: shopScreens, store: FileStore(directory: directory))
        let session = try await coordinator.launch()
        guard session.report.outcome == .restored else {
            throw DemoError("nothing was restored: \(session.report.freshReason?.message ?? "unknown reason")")
        }
        print(session.tree.description)
        for skipped in session.report.skipped {
            FileHandle.standardError.write(Data("skipped \(skipped)\n".utf8))
        }
    }

    /// The whole scenario; returns the exit status.
    static func runScenario() async throws -> Int32 {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("restoration-demo-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let tree = try userSession()
        let coordinator = RestorationCoordinator(screens: shopScreens, store: FileStore(directory: directory))
        let saved = try await coordinator.save(tree)
        print("The app entered the background and saved \(saved.savedPaths.count) nodes (\(saved.byteCount) bytes).")
        print("\nBefore the process ended:\n\(tree.description)\n")

        let (status, output, errors) = try relaunch(restoringFrom: directory)
        guard status == 0 else {
            print("The relaunched process failed (exit \(status)):\n\(errors)")
            return 1
        }
        print("After a new process restored it:\n\(output)")
        if !errors.isEmpty { print(errors) }
        if output == tree.description {
            print("The hierarchy came back identical.")
            return 0
        }
        print("The restored hierarchy differs from the saved one.")
        return 1
    }

    /// Runs this executable again with `--restore DIRECTORY` and collects its output.
    static func relaunch(restoringFrom directory: URL) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        if let path = Bundle.main.executablePath { process.executableURL = URL(fileURLWithPath: path) }
        process.arguments = ["--restore", directory.path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: outputData, as: UTF8.self).trimmingCharacters(in: .newlines)
        return (process.terminationStatus, text, String(decoding: errorData, as: UTF8.self))
    }
}

struct DemoError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
