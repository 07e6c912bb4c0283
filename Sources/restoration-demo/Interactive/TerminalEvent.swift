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
    /// ends with the input, or with the process. After handing over keys it reads
    /// nothing until the app calls ``KeysHandled/next()``: an app that quits on a
    /// key never calls it, so what the user types after it (the shell's next
    /// command) stays in the terminal for the shell.
    ///
    /// - Parameter signals: The signal pipe's read end (``SystemCalls/installSignalPipe()``).
    /// - Returns: The events, in the order they arrived, and the turn to give back.
    static func stream(signals: Int32) -> (events: AsyncStream<TerminalEvent>, handled: KeysHandled) {
        let (events, continuation) = AsyncStream.makeStream(of: TerminalEvent.self)
        let handled = KeysHandled()
        let reader = Thread {
            var decoder = KeyDecoder()
            while true {
                switch SystemCalls.waitForInput([0, signals], timeoutMilliseconds: decoder.isWaiting ? 40 : -1) {
                case .timedOut:
                    let keys = decoder.flush()
                    if !keys.isEmpty {
                        continuation.yield(.keys(keys))
                        handled.wait()
                    }
                case .readable(0):
                    guard let bytes = SystemCalls.readAvailable(0) else { continue }
                    guard !bytes.isEmpty else {
                        continuation.yield(.endOfInput)
                        continuation.finish()
                        return
                    }
                    let keys = decoder.decode(bytes)
                    guard !keys.isEmpty else { continue }  // the start of an escape sequence
                    continuation.yield(.keys(keys))
                    handled.wait()
                default:
                    for signal in SystemCalls.readAvailable(signals) ?? [] {
                        continuation.yield(.signal(Int32(signal)))
                    }
                }
            }
        }
        reader.start()
        return (events, handled)
    }
}

/// The app's word to the input thread that it handled the keys it was given.
final class KeysHandled: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    /// The keys were handled: the thread may read more.
    func next() { semaphore.signal() }

    /// Blocks the input thread until the app handled the keys.
    fileprivate func wait() { semaphore.wait() }
}
