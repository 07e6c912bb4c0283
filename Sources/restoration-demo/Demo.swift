import Foundation

/// A shop app whose state survives the death of its process.
///
/// - `restoration-demo`: a scripted session (``ScriptedSession``): the app runs
///   in a child process, is used, goes to the background, is killed with
///   SIGKILL, and a new process restores it; the two hierarchies are compared.
/// - `restoration-demo --interactive [--directory DIR]`: the app in the terminal
///   (``InteractiveApp``), on a `RestorationModel` its drawing observes and its
///   keys change; Ctrl-Z saves and suspends it.
/// - `restoration-demo --app-process DIR` (hidden): the scripted session's child.
@main
struct Demo {
    static let usage = """
        usage: restoration-demo                  a scripted session: use, background, kill -9, relaunch, compare
               restoration-demo --interactive [--directory DIR]
                                                 the shop app in this terminal; Ctrl-Z saves and suspends it
        """

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            switch arguments.first {
            case nil:
                exit(try ScriptedSession.run())
            case "--app-process" where arguments.count == 2:
                exit(try await AppProcess.run(directory: URL(fileURLWithPath: arguments[1], isDirectory: true)))
            case "--interactive" where arguments.count == 1:
                exit(try await InteractiveApp.run(directory: InteractiveApp.defaultDirectory))
            case "--interactive" where arguments.count == 3 && arguments[1] == "--directory":
                exit(try await InteractiveApp.run(directory: URL(fileURLWithPath: arguments[2], isDirectory: true)))
            case "--help", "-h":
                print(usage)
            default:
                FileHandle.standardError.write(Data((usage + "\n").utf8))
                exit(2)
            }
        } catch {
            FileHandle.standardError.write(Data("restoration-demo: \(error)\n".utf8))
            exit(1)
        }
    }
}

/// Something the demo could not do, in one line.
struct DemoError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
