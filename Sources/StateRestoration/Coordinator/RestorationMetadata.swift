public import Foundation

/// Values the app writes beside its hierarchy when saving, and reads before
/// deciding whether to restore: UIKit's extra values in the coder of
/// `application(_:shouldSaveApplicationState:)`.
///
/// ```swift
/// func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool {
///     try? metadata.set("eu-west", forKey: "region")
///     return true
/// }
/// func shouldRestore(_ archive: ArchiveInfo) async -> Bool {
///     archive.metadata.value(String.self, forKey: "region") == currentRegion
/// }
/// ```
public struct RestorationMetadata: Sendable, Equatable, Codable {
    /// The encoded values by key.
    public private(set) var values: [String: Data]

    /// Creates empty metadata.
    public init() {
        values = [:]
    }

    /// Stores a value under a key, replacing what was there.
    ///
    /// - Parameters:
    ///   - value: Any Encodable value.
    ///   - key: The key.
    /// - Throws: The encoder's error when the value cannot be encoded.
    public mutating func set<T: Encodable>(_ value: T, forKey key: String) throws {
        values[key] = try ArchiveEncoder().encode(value)
    }

    /// Reads the value stored under a key.
    ///
    /// - Parameters:
    ///   - type: The value's type.
    ///   - key: The key.
    /// - Returns: The value, or nil when there is none or it does not decode as `type`.
    public func value<T: Decodable>(_ type: T.Type, forKey key: String) -> T? {
        guard let data = values[key] else { return nil }
        return try? ArchiveDecoder().decode(T.self, from: data)
    }

    /// Removes the value under a key.
    ///
    /// - Parameter key: The key.
    public mutating func removeValue(forKey key: String) {
        values[key] = nil
    }

    /// The keys that hold values, sorted.
    public var keys: [String] { values.keys.sorted() }
}
