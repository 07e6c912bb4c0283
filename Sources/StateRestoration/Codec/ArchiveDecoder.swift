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
/// what failed, where (the byte offset, or the missing key) and the coding path; structural failures are
/// `dataCorrupted` with an ``ArchiveError`` as the underlying error.
///
/// ```swift
/// struct Screen: Codable { var id: UUID; var title: String; var note: String? }
/// let screen = try ArchiveDecoder().decode(Screen.self, from: data)
/// ```
public struct ArchiveDecoder: Sendable {
    /// The nesting limit new decoders start with: 512 levels.
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
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates a decoder with the default depth limit and an empty `userInfo`.
    public init() {}

    /// Decodes a value of `type` from `data`.
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
        defer { state.wrappers = nil }
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
        let decoder = ArchiveValueDecoder(state: self, position: position, implied: implied, depth: depth)
        if let array = arrayType(T.self) {
            return try decodeArray(array, as: T.self, with: decoder)
        }
        return try T(from: decoder)
    }

    /// `type` as an array the decoder reads itself, or nil; looked up once per decode and type.
    private func arrayType(_ type: Any.Type) -> (any ArchiveDecodableArray.Type)? {
        if let known = index.arrayTypes[type] { return known }
        let array = type as? any ArchiveDecodableArray.Type
        index.arrayTypes[type] = .some(array)
        return array
    }
}

/// An array the decoder reads through its own unkeyed container, as `Array.init(from:)` would
/// (the same calls, so the same errors and coding paths) but appending to one array of its own:
/// `Array.init(from:)` runs unspecialized in the standard library and looks `Array`'s metadata up
/// for every element it appends.
protocol ArchiveDecodableArray {
    /// The array the container holds.
    static func decodeArray(from container: inout ArchiveUnkeyedDecodingContainer) throws -> Self
}

extension Array: ArchiveDecodableArray where Element: Decodable {
    static func decodeArray(from container: inout ArchiveUnkeyedDecodingContainer) throws -> [Element] {
        var array: [Element] = []
        // The count is bounded by the input's length, not by memory: reserve little up front.
        array.reserveCapacity(Swift.min(container.count ?? 0, 64))
        while !container.isAtEnd { array.append(try container.decode(Element.self)) }
        return array
    }

}
