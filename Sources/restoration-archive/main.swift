import Foundation

// `restoration-archive`: prints, dumps, validates and compares restoration archives.
// Everything but the process boundary lives in `Tool.run(_:)`, so that the output of
// every command is one value built before anything is written.
let result = Tool.run(Array(CommandLine.arguments.dropFirst()))
FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.status)
