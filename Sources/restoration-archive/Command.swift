/// A parsed command line.
///
/// Arguments are parsed by hand: a command name, then its operands and options in any
/// order; `--` ends the options, so a file named `-x` is `-- -x`.
enum Command: Equatable {
    /// Print the usage text.
    case help
    /// Print the header, info, objects, app state and hierarchy of an archive.
    case inspect(path: String)
    /// Print an archive as one JSON document.
    case dump(path: String)
    /// Check an archive.
    case validate(path: String)
    /// Compare two archives.
    case diff(old: String, new: String)

    /// The usage text, printed by `--help`.
    static let usage = """
        usage: restoration-archive <command> [options] FILE...

        Prints, checks and compares the restoration archives that a RestorationCoordinator
        saves (<key>.restoration, and rejected copies <key>.rejected-….restoration),
        without the app's types.

        commands:
          inspect FILE      the header, archive info, shared objects, app-wide state and
                            the saved hierarchy as an indented tree
          dump FILE --json  the whole archive, every state included, as one JSON document
          validate FILE     check the envelope, the body, every state and the tree;
                            exit 1 with one line per failing check
          diff A B          screens added, removed and changed from A to B, with the
                            changed fields; exit 0 when the same, 1 when they differ

        options:
          --json            (dump) JSON output; the only format, and the default
          -h, --help        show this text

        Exit status: 0 success, 1 a check failed or the archives differ, 2 trouble
        (a usage error, or a file that cannot be read or is not an archive).

        """

    /// A usage error: one line that says what is wrong with the command line.
    struct UsageError: Error, Equatable {
        var message: String

        init(_ message: String) {
            self.message = message
        }
    }

    /// Parses the arguments after the program name.
    ///
    /// - Parameter arguments: The arguments, such as `["diff", "a.restoration", "b.restoration"]`.
    /// - Returns: The command.
    /// - Throws: ``UsageError`` for a missing or unknown command, an unknown option, or
    ///   the wrong number of files.
    static func parse(_ arguments: [String]) throws(UsageError) -> Command {
        guard let name = arguments.first else { throw UsageError("missing command") }
        if ["-h", "--help", "help"].contains(name) { return .help }
        let names = ["inspect", "dump", "validate", "diff"]
        guard names.contains(name) else {
            if name.hasPrefix("-") { throw UsageError("unknown option '\(name)'") }
            throw UsageError("unknown command '\(name)' (commands: \(names.joined(separator: ", ")))")
        }

        var operands: [String] = []
        var optionsEnded = false
        for argument in arguments.dropFirst() {
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                operands.append(argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument == "-h" || argument == "--help" {
                return .help
            } else if argument == "--json" && name == "dump" {
                continue
            } else {
                throw UsageError("unknown option '\(argument)' for \(name)")
            }
        }

        if name == "diff" {
            guard operands.count == 2 else {
                throw UsageError("diff needs two files, A and B; got \(describe(operands))")
            }
            return .diff(old: operands[0], new: operands[1])
        }
        guard operands.count == 1 else {
            throw UsageError("\(name) needs one FILE; got \(describe(operands))")
        }
        switch name {
        case "inspect": return .inspect(path: operands[0])
        case "dump": return .dump(path: operands[0])
        default: return .validate(path: operands[0])
        }
    }

    private static func describe(_ operands: [String]) -> String {
        operands.isEmpty ? "none" : "\(operands.count): \(operands.joined(separator: " "))"
    }
}
