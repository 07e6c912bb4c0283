/// The tool's entry point, free of process effects: it turns arguments into the text
/// for standard output and standard error and an exit status.
enum Tool {
    /// The name the tool prints in its messages.
    static let name = "restoration-archive"

    /// Exit statuses, as diff(1) uses them.
    enum Status {
        /// Success; for `diff`, the archives are the same; for `validate`, every check passed.
        static let success: Int32 = 0
        /// For `diff`, the archives differ; for `validate`, a check failed.
        static let failure: Int32 = 1
        /// A usage error, or a file that cannot be read or understood.
        static let trouble: Int32 = 2
    }

    /// What a run prints and how it exits.
    struct Output: Equatable {
        var standardOutput = ""
        var standardError = ""
        var status: Int32 = Status.success

        /// A run that failed with one line on standard error.
        static func trouble(_ message: String) -> Output {
            Output(standardError: "\(Tool.name): \(oneLine(message))\n", status: Status.trouble)
        }
    }

    /// Runs one command.
    ///
    /// - Parameter arguments: The arguments after the program name.
    /// - Returns: The output to print and the exit status.
    static func run(_ arguments: [String]) -> Output {
        let command: Command
        do {
            command = try Command.parse(arguments)
        } catch {
            return .trouble("\(error.message); see '\(name) --help'")
        }
        do {
            switch command {
            case .help:
                return Output(standardOutput: Command.usage)
            case .inspect(let path):
                return Output(standardOutput: Inspector(file: try ArchiveFile.load(path)).render())
            case .dump(let path):
                return Output(standardOutput: Dumper(file: try ArchiveFile.load(path)).render() + "\n")
            case .validate(let path):
                return try Validator(path: path).run()
            case .diff(let old, let new):
                let lines = Differ(old: try ArchiveFile.load(old), new: try ArchiveFile.load(new)).render()
                return Output(
                    standardOutput: lines.map { $0 + "\n" }.joined(),
                    status: lines.isEmpty ? Status.success : Status.failure)
            }
        } catch {
            return .trouble(error.message)
        }
    }
}

/// A failure that ends a command: a file that cannot be read or is not a usable archive.
struct ToolError: Error {
    /// One line naming the file and what is wrong with it.
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

/// `text` with its line breaks replaced by spaces, so that a message is one line.
func oneLine(_ text: String) -> String {
    String(text.map { $0.isNewline ? " " : $0 })
}
