public import Foundation

/// Decodes any `Decodable` value from an archive written by ``ArchiveEncoder``.
///
/// `ArchiveDecoder` is shaped like `JSONDecoder`. Because the format is
/// self-describing, a type can evolve without breaking old archives: a field added as
/// an optional decodes as `nil` from an archive that lacks it, and a field the type no
/// longer has is ignored. A value stored with a different type than the one requested
/// throws `DecodingError.typeMismatch` with the coding path.
///
/// The decoder is hardened against hostile input. Every read is bounds-checked, every
/// count and length is checked against the bytes remaining before anything is
/// allocated, nesting is limited by ``maximumDepth``, and strings must be valid UTF-8.
/// Every failure is a thrown `DecodingError` whose debug description is one line naming
/// what failed, the byte offset and the coding path; structural failures are
/// `dataCorrupted` with an ``ArchiveError`` as the underlying error.
///
/// ```swift
/// struct Screen: Codable { var id: UUID; var title: String; var note: String? }
/// let screen = try ArchiveDecoder().decode(Screen.self, from: data)
/// ```
public struct ArchiveDecoder: Sendable {
    /// The nesting limit new decoders start with: 512 levels.
    ///
    /// ```swift
    /// #expect(ArchiveDecoder().maximumDepth == ArchiveDecoder.defaultMaximumDepth)
    /// ```
    public static let defaultMaximumDepth = 512

    /// How deeply values may nest (nested `init(from:)` calls) before decoding fails
    /// with ``ArchiveError/Code/depthLimitExceeded``; protects the stack from hostile input.
    ///
    /// Lower it for untrusted input whose types are shallow:
    ///
    /// ```swift
    /// var decoder = ArchiveDecoder()
    /// decoder.maximumDepth = 32
    /// ```
    public var maximumDepth: Int = ArchiveDecoder.defaultMaximumDepth

    /// Values handed to `init(from:)` implementations through `Decoder.userInfo`.
    ///
    /// ```swift
    /// var decoder = ArchiveDecoder()
    /// decoder.userInfo[CodingUserInfoKey(rawValue: "appVersion")!] = "4.2"
    /// ```
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with the default depth limit and an empty `userInfo`.
    ///
    /// ```swift
    /// var decoder = ArchiveDecoder()
    /// decoder.maximumDepth = 64
    /// ```
    public init() {}

    /// Decodes a value of `type` from `data`.
    ///
    /// ```swift
    /// let numbers = try ArchiveDecoder().decode([Int].self, from: data)
    /// ```
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: An archive written by ``ArchiveEncoder/encode(_:)``.
    /// - Returns: The decoded value.
    /// - Throws: `DecodingError.dataCorrupted` (with an ``ArchiveError`` underlying
    ///   error) when the bytes are not a well-formed archive, `typeMismatch`,
    ///   `valueNotFound` or `keyNotFound` when they do not match `type`, or any error
    ///   `type`'s `init(from:)` throws.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let state: ArchiveDecodingState
        do throws(ArchiveError) {
            state = try ArchiveDecodingState(data, maximumDepth: maximumDepth, userInfo: userInfo)
        } catch {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [], debugDescription: error.message, underlyingError: error))
        }
        defer { state.wrappers = ArchiveTypeTable() }
        return try state.decode(T.self, at: state.rootPosition, end: state.reader.size, implied: nil, depth: 0)
    }
}

extension ArchiveDecodingState {
    /// Decodes any value at `position`, which ends by `end`: the types with an encoding of their
    /// own are read directly, any other through `T.init(from:)`.
    ///
    /// `depth` is the length of the value's coding path (its key is already recorded).
    func decode<T: Decodable>(_ type: T.Type, at position: Int, end: Int, implied: UInt8?, depth: Int) throws -> T {
        if let kind = ArchiveKnownType.of(T.self) {
            do throws(ArchiveError) {
                var p = position
                return try reader.read(kind, as: T.self, &p, end: end, implied: implied)
            } catch {
                throw decodingError(error, type: T.self, depth: depth)
            }
        }
        index.nesting += 1
        defer { index.nesting -= 1 }
        guard index.nesting <= maximumDepth else {
            throw decodingError(depthExceeded(at: position), type: T.self, depth: depth)
        }
        return try T(
            from: ArchiveValueDecoder(state: self, position: position, end: end, implied: implied, depth: depth))
    }

}
