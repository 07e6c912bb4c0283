import Foundation

/// What the terminal sends the interactive app: keys, and the signals it handles.
enum TerminalEvent: Sendable {
    /// Keys the user pressed.
    case keys([Key])
    /// A signal's number: suspend, continue, resize, or one that ends the app.
    case signal(Int32)
    /// Standard input ended.
    case endOfInput

    /// The keys typed on standard input and the signals written to the signal
    /// pipe, read on a thread of their own: the main actor stays free to draw
    /// and save while the app waits for the user.
    ///
    /// The thread blocks in `poll`, as a terminal program's input loop does; it
    /// ends with the input, or with the process.
    ///
    /// - Parameter signals: The signal pipe's read end (``SystemCalls/installSignalPipe()``).
    /// - Returns: The events, in the order they arrived.
    static func stream(signals: Int32) -> AsyncStream<TerminalEvent> {
        let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
        let reader = Thread {
            var decoder = KeyDecoder()
            while true {
                switch SystemCalls.waitForInput([0, signals], timeoutMilliseconds: decoder.isWaiting ? 40 : -1) {
                case .timedOut:
                    let keys = decoder.flush()
                    if !keys.isEmpty { continuation.yield(.keys(keys)) }
                case .readable(0):
                    guard let bytes = SystemCalls.readAvailable(0) else { continue }
                    guard !bytes.isEmpty else {
                        continuation.yield(.endOfInput)
                        continuation.finish()
                        return
                    }
                    continuation.yield(.keys(decoder.decode(bytes)))
                default:
                    for signal in SystemCalls.readAvailable(signals) ?? [] {
                        continuation.yield(.signal(Int32(signal)))
                    }
                }
            }
        }
        reader.start()
        return events
    }
}
