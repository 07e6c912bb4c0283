/// A file and line in the app's source, where a declaration element was written.
public struct DeclarationLocation: Sendable, Hashable, CustomStringConvertible {
    /// The file, as `#fileID` gives it (`Module/File.swift`).
    public var fileID: String
    /// The line.
    public var line: Int

    /// Creates a location.
    ///
    /// - Parameters:
    ///   - fileID: The file, as `#fileID` gives it.
    ///   - line: The line.
    public init(fileID: String, line: Int) {
        self.fileID = fileID
        self.line = line
    }

    /// `File.swift:12`.
    public var description: String { "\(fileID):\(line)" }
}
