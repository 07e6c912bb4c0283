/// A test set-up the harness cannot carry out: damaging an archive that was never
/// saved, flipping a byte past its end, a clock that never reached the timeout.
///
/// These are mistakes in the test, not behaviour of the code under test, so the
/// harness throws them and the test fails with the message.
///
/// ```swift
/// #expect(throws: HarnessError.self) { try harness.damageArchive(.truncated(toByteCount: 10)) }
/// ```
///
/// `HarnessError` is `Sendable`.
public struct HarnessError: Error, Sendable, Equatable, CustomStringConvertible {
    /// One line saying what could not be done and why.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameter message: What could not be done and why.
    public init(_ message: String) {
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
