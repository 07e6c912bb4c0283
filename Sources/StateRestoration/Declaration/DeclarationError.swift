/// A screen declaration with errors: nothing is saved or restored with it.
///
/// `launch()` and `save(_:)` throw it before touching any archive.
public struct DeclarationError: Error, Sendable, CustomStringConvertible {
    /// The error-severity findings.
    public var diagnostics: [DeclarationDiagnostic]

    /// Creates the error from the failing diagnostics.
    ///
    /// - Parameter diagnostics: The error-severity findings.
    public init(diagnostics: [DeclarationDiagnostic]) {
        self.diagnostics = diagnostics
    }

    /// `invalid screen declaration: <first message> (and N more)`.
    public var description: String {
        guard let first = diagnostics.first else { return "invalid screen declaration" }
        let more = diagnostics.count > 1 ? " (and \(diagnostics.count - 1) more)" : ""
        return "invalid screen declaration: \(first.message)\(more)"
    }
}
