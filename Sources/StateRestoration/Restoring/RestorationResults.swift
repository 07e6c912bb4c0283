/// What a restored screen is told when the restoration finished: how each of its
/// own restoration extensions ended, and what the completed ones returned.
///
/// ```swift
/// mutating func restorationDidFinish(_ results: RestorationResults) {
///     if let messages = results.value(of: "load messages", as: [Message].self) {
///         state.unreadCount = messages.filter(\.isUnread).count
///     } else if !results.allCompleted {
///         state.showsRetry = true
///     }
/// }
/// ```
public struct RestorationResults: Sendable {
    /// How each extension the screen added ended, in the order it added them.
    public let extensions: [LaunchReport.ExtensionOutcome]

    /// What the completed extensions returned, in the order of ``extensions``.
    private let values: [(name: String, value: any Sendable)]

    /// Creates results.
    ///
    /// - Parameters:
    ///   - extensions: How each extension ended.
    ///   - values: What the completed ones returned, by extension name.
    public init(extensions: [LaunchReport.ExtensionOutcome] = [], values: [(name: String, value: any Sendable)] = []) {
        self.extensions = extensions
        self.values = values
    }

    /// What the completed extension of this name returned, or nil when it did not
    /// complete, returned another type, or none has the name.
    ///
    /// - Parameters:
    ///   - name: The name the extension was added with.
    ///   - type: The type it returned.
    /// - Returns: The value, or nil.
    public func value<Value>(of name: String, as type: Value.Type = Value.self) -> Value? {
        for entry in values where entry.name == name {
            if let value = entry.value as? Value { return value }
        }
        return nil
    }

    /// Whether every extension of the screen completed (true when it added none).
    public var allCompleted: Bool {
        extensions.allSatisfy { $0.result == .completed }
    }
}
