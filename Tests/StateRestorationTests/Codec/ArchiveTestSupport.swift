import Foundation
import StateRestoration

/// The archive code carried by an error from the codec, whether it was thrown directly
/// or as the underlying error of a `DecodingError`.
func archiveCode(of error: any Error) -> ArchiveError.Code? {
    archiveError(of: error)?.code
}

func archiveError(of error: any Error) -> ArchiveError? {
    if let error = error as? ArchiveError { return error }
    guard let error = error as? DecodingError else { return nil }
    switch error {
    case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
        .keyNotFound(_, let context):
        return context.underlyingError as? ArchiveError
    @unknown default:
        return nil
    }
}

/// The one-line description a `DecodingError` carries.
func debugDescription(of error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    switch error {
    case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
        .keyNotFound(_, let context):
        return context.debugDescription
    @unknown default:
        return "\(error)"
    }
}

/// Hand-built archive bytes. The tag values are written out here on purpose: the tests
/// pin the documented format (Documentation/ArchiveFormat.md) independently of the code.
enum Bytes {
    static let null: UInt8 = 0x00
    static let boolFalse: UInt8 = 0x01
    static let boolTrue: UInt8 = 0x02
    static let int: UInt8 = 0x03
    static let uint: UInt8 = 0x04
    static let float32: UInt8 = 0x05
    static let float64: UInt8 = 0x06
    static let string: UInt8 = 0x07
    static let data: UInt8 = 0x08
    static let date: UInt8 = 0x09
    static let uuid: UInt8 = 0x0A
    static let url: UInt8 = 0x0B
    static let array: UInt8 = 0x0C
    static let typedArray: UInt8 = 0x0D
    static let keyed: UInt8 = 0x0E
    static let decimalDouble: UInt8 = 0x10
    static let decimalDate: UInt8 = 0x18
    static let smallKeyed: UInt8 = 0x20
    static let fixInt: UInt8 = 0x40
    static let fixString: UInt8 = 0x80
    static let smallArray: UInt8 = 0xC0

    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value
        var out: [UInt8] = []
        while value >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
        return out
    }

    /// A whole archive: preamble, name table, root value.
    static func archive(names: [String] = [], root: [UInt8]) -> Data {
        var out: [UInt8] = [0x53, 0x52, 0x76, 0x01]
        let table = names.flatMap { varint(UInt64($0.utf8.count)) + Array($0.utf8) }
        out += varint(UInt64(names.count)) + varint(UInt64(table.count)) + table
        return Data(out + root)
    }

    static func string(_ text: String) -> [UInt8] {
        [string] + varint(UInt64(text.utf8.count)) + Array(text.utf8)
    }

    static func int(_ value: Int64) -> [UInt8] {
        [int] + varint(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    /// A container: tag, count, byte length, content.
    static func container(_ tag: UInt8, count: Int, _ content: [UInt8]) -> [UInt8] {
        [tag] + varint(UInt64(count)) + varint(UInt64(content.count)) + content
    }

    /// A keyed container (long form, tag 0E: byte length, no count) from (name index, value bytes) entries.
    static func keyed(_ entries: [(Int, [UInt8])]) -> [UInt8] {
        let content = entries.flatMap { varint(UInt64($0.0)) + $0.1 }
        return [keyed] + varint(UInt64(content.count)) + content
    }
}

/// SplitMix64: a tiny deterministic generator so that "random" tests replay exactly.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
