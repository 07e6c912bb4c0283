public import Foundation

/// Encodes any `Encodable` value into the compact, self-describing binary archive format.
///
/// `ArchiveEncoder` is shaped like `JSONEncoder`: configure it, then call
/// ``encode(_:)``. The output starts with a 4-byte preamble (magic `SRv` and a format
/// version), then the table of field names (each name stored once per archive), then
/// the root value. Every value carries a one-byte type tag; integers are varints
/// (zigzag for signed ones); keyed containers refer to field names by their index in
/// the table; containers are length-prefixed so that a reader can skip them. `Data`,
/// `Date`, `UUID`, `URL` and arrays of scalars have compact dedicated encodings. See
/// `Documentation/ArchiveFormat.md` for the byte-level layout.
///
/// Values are written straight into one growing buffer with no intermediate tree.
/// Containers must be used in nesting order: once you write to a container, the nested
/// containers and super encoders created from it before are closed, and writing to
/// them throws an `EncodingError`.
///
/// A key's name is its `stringValue`, asked once per call for each value of a key type whose
/// values are one byte of plain data (a synthesized `CodingKeys` enum), and remembered for the
/// rest of the call: such a key's name must not change while an encode runs. The decoder does
/// the same.
///
/// ```swift
/// struct Screen: Codable { var id: UUID; var title: String; var scroll: Double }
/// let data = try ArchiveEncoder().encode(Screen(id: UUID(), title: "Inbox", scroll: 120))
/// let screen = try ArchiveDecoder().decode(Screen.self, from: data)
/// ```
public struct ArchiveEncoder: Sendable {
    /// Values handed to `encode(to:)` implementations through `Encoder.userInfo`.
    ///
    /// ```swift
    /// var encoder = ArchiveEncoder()
    /// encoder.userInfo[CodingUserInfoKey(rawValue: "appVersion")!] = "4.2"
    /// ```
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]

    /// Creates an encoder with an empty `userInfo`.
    ///
    /// ```swift
    /// let encoder = ArchiveEncoder()
    /// ```
    public init() {}

    /// Encodes `value` into a standalone archive.
    ///
    /// ```swift
    /// let data = try ArchiveEncoder().encode(["a": 1, "b": 2])
    /// ```
    ///
    /// - Parameter value: The value to encode.
    /// - Returns: The archive bytes.
    /// - Throws: `EncodingError.invalidValue` when the value's `encode(to:)` misuses
    ///   the Encoder API (writes a key twice in one container, writes to a container
    ///   after its parent moved on, or encodes two single values into one slot), or
    ///   any error the value's `encode(to:)` throws.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        try encode(value, owningLargePayloads: false)
    }

    /// The `Data` payloads of at least this many bytes that ``encode(_:owningLargePayloads:)``
    /// and ``encodeSealed(_:formatVersion:)`` copy once, straight into the output. As small as
    /// ``ArchiveEncodingState/knownRegisterThreshold``, so that a node record folds in the
    /// registers of its screens' records (most of a few hundred bytes) instead of reading them.
    static let largePayloadSize = 256

    /// Encodes `value` like ``encode(_:)``, the same bytes, copying each `Data` payload of
    /// ``largePayloadSize`` bytes or more once, straight into the output, rather than into
    /// the working buffer first. For values whose every `Data` is an owned buffer (the
    /// coordinator's encodings of states and nodes), not one made with
    /// `Data(bytesNoCopy:count:deallocator: .none)` over memory freed before this returns.
    func encode<T: Encodable>(_ value: T, owningLargePayloads: Bool) throws -> Data {
        try encode(value, owningLargePayloads: owningLargePayloads) { $0.finish() }
    }

    /// Encodes `value` as the body of an ``ArchiveEnvelope``: the same bytes as
    /// `ArchiveEnvelope.seal(encode(value), formatVersion:)`, written once, with no
    /// copy of the body. Large `Data` payloads are treated as in
    /// ``encode(_:owningLargePayloads:)`` with `owningLargePayloads` true.
    ///
    /// `registers` gives the CRC-32C registers (``CRC32C/register(_:)``) of large `Data`
    /// payloads it knows, which are then not read again for the checksum; see
    /// ``encodeWithRegister(_:registers:)``.
    func encodeSealed<T: Encodable>(
        _ value: T, formatVersion: UInt16, registers: ((Data) -> UInt32?)? = nil
    ) throws -> Data {
        try encode(value, owningLargePayloads: true) { state in
            state.finish(reservingPrefix: ArchiveEnvelope.headerSize, registers: registers) { header, body, register in
                ArchiveEnvelope.writeHeader(into: header, body: body, formatVersion: formatVersion, register: register)
            }
        }
    }

    /// Encodes `value` like ``encode(_:owningLargePayloads:)`` with `owningLargePayloads` true,
    /// and returns the CRC-32C register of the bytes (``CRC32C/register(_:)``) with them.
    ///
    /// The register costs a read of the bytes this encoding wrote itself, not of the large
    /// `Data` payloads whose registers `registers` knows: a record that holds earlier
    /// encodings (a node's children) gets its register, and later the archive its checksum,
    /// for the price of what changed.
    func encodeWithRegister<T: Encodable>(
        _ value: T, registers: (Data) -> UInt32?
    ) throws -> (data: Data, register: UInt32) {
        var result: UInt32 = 0
        let data = try withoutActuallyEscaping(registers) { registers in
            try encode(value, owningLargePayloads: true) { state in
                state.finish(reservingPrefix: 0, registers: registers) { _, _, register in
                    result = register ?? 0
                }
            }
        }
        return (data, result)
    }

    /// Encodes `value` up to the copy into its own `Data`, for an enclosing encoding to write
    /// in place (see ``ArchivePendingEncoding``), owning its large payloads. `registers` is
    /// asked for the CRC-32C registers of those, in the order they were encoded.
    func encodePending<T: Encodable>(
        _ value: T, registers: (Data) -> UInt32?
    ) throws -> ArchivePendingEncoding {
        try encode(value, owningLargePayloads: true) { state in
            let pending = ArchivePendingEncoding(state: state)
            state.resolveRegisters(registers)
            return pending
        }
    }

    /// Encodes `value` with a coding state (a pooled one when there is one) and returns what
    /// `finish` makes of it.
    private func encode<T: Encodable, Result>(
        _ value: T, owningLargePayloads: Bool, finish: (ArchiveEncodingState) -> Result
    ) throws -> Result {
        var state = ArchiveEncodingState.make(
            userInfo: userInfo, externalThreshold: owningLargePayloads ? Self.largePayloadSize : .max)
        state.takeNameBook()
        defer {
            state.returnNameBook()
            ArchiveEncodingState.recycle(&state)
        }
        try state.encodeGeneric(value, parent: -1, depth: 0)
        return finish(state)
    }
}
