import FuzzSupport
import Foundation

// Writes the fuzzer's seed corpus: swift run --package-path Fuzz write-corpus Fuzz/corpus
guard CommandLine.arguments.count == 2 else {
    print("usage: write-corpus DIRECTORY")
    exit(2)
}
do {
    try await writeCorpus(to: URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true))
    print("wrote the seed corpus to \(CommandLine.arguments[1])")
} catch {
    print("cannot write the corpus: \(error)")
    exit(1)
}
