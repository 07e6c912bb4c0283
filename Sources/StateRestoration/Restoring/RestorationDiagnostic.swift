/// Something a screen or the delegate reported while a launch restored: state
/// that did not come back as it was saved, though the restoration went on.
///
/// Screens report with ``RestorationContext/report(_:)``; the delegate reads
/// what was reported in ``RestorationContext/diagnostics``.
///
/// ```text
/// tabs/browse/products#0: selected row p-3 no longer exists; dropped from the selection
/// ```
public struct RestorationDiagnostic: Sendable, Equatable, CustomStringConvertible {
    /// The path of the screen that reported it; nil for the delegate.
    public var path: IdentifierPath?
    /// One line that says what was not restored, and what was done instead.
    public var message: String

    /// Creates a diagnostic.
    ///
    /// ```swift
    /// let diagnostic = RestorationDiagnostic(path: "tabs/browse", message: "filter dropped")
    /// ```
    ///
    /// - Parameters:
    ///   - path: The path of the screen that reports it; nil for the delegate.
    ///   - message: One line that says what was not restored.
    public init(path: IdentifierPath?, message: String) {
        self.path = path
        self.message = message
    }

    /// `<path>: <message>`, or the message alone when no screen reported it.
    public var description: String {
        guard let path else { return message }
        return "\(path): \(message)"
    }
}
