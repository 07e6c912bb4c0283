import Foundation

/// Reads the one value of a decoder.
struct ArchiveSingleValueDecodingContainer: SingleValueDecodingContainer {
    let state: ArchiveDecodingState
    let position: Int
    let implied: UInt8
    let depth: Int

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }

    @inline(__always)
    private func read<Value>(
        _ reader: (ArchiveDecodingState, inout Int, UInt8) throws(ArchiveError) -> Value
    ) throws -> Value {
        var p = position
        do throws(ArchiveError) {
            return try reader(state, &p, implied)
        } catch {
            throw state.decodingError(error, type: Value.self, depth: depth, key: nil)
        }
    }

    func decodeNil() -> Bool {
        state.peekTag(at: position, implied: implied) == ArchiveTag.null
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try read { (s, p, t) throws(ArchiveError) in try s.readBool(&p, end: s.size, implied: t) }
    }

    func decode(_ type: String.Type) throws -> String {
        try read { (s, p, t) throws(ArchiveError) in try s.readString(&p, end: s.size, implied: t) }
    }

    func decode(_ type: Double.Type) throws -> Double {
        try read { (s, p, t) throws(ArchiveError) in try s.readDouble(&p, end: s.size, implied: t) }
    }

    func decode(_ type: Float.Type) throws -> Float {
        try read { (s, p, t) throws(ArchiveError) in try s.readFloat(&p, end: s.size, implied: t) }
    }

    func decode(_ type: Int.Type) throws -> Int {
        try read { (s, p, t) throws(ArchiveError) in try s.readInteger(Int.self, &p, end: s.size, implied: t) }
    }

    func decode(_ type: Int8.Type) throws -> Int8 {
        try read { (s, p, t) throws(ArchiveError) in try s.readInteger(Int8.self, &p, end: s.size, implied: t) }
    }

    func decode(_ type: Int16.Type) throws -> Int16 {
        try read { (s, p, t) throws(ArchiveError) in try s.readInteger(Int16.self, &p, end: s.size, implied: t) }
    }

    func decode(_ type: Int32.Type) throws -> Int32 {
        try read { (s, p, t) throws(ArchiveError) in try s.readInteger(Int32.self, &p, end: s.size, implied: t) }
    }

    func decode(_ type: Int64.Type) throws -> Int64 {
        try read { (s, p, t) throws(ArchiveError) in try s.readInteger(Int64.self, &p, end: s.size, implied: t) }
    }

    func decode(_ type: UInt.Type) throws -> UInt {
        try read { (s, p, t) throws(ArchiveError) in try s.readInteger(UInt.self, &p, end: s.size, implied: t) }
    }

    func decode(_ type: UInt8.Type) throws -> UInt8 {
        try read { (s, p, t) throws(ArchiveError) in try s.readInteger(UInt8.self, &p, end: s.size, implied: t) }
    }

    func decode(_ type: UInt16.Type) throws -> UInt16 {
        try read { (s, p, t) throws(ArchiveError) in try s.readInteger(UInt16.self, &p, end: s.size, implied: t) }
    }

    func decode(_ type: UInt32.Type) throws -> UInt32 {
        try read { (s, p, t) throws(ArchiveError) in try s.readInteger(UInt32.self, &p, end: s.size, implied: t) }
    }

    func decode(_ type: UInt64.Type) throws -> UInt64 {
        try read { (s, p, t) throws(ArchiveError) in try s.readInteger(UInt64.self, &p, end: s.size, implied: t) }
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try state.decodeGeneric(T.self, at: position, implied: implied, depth: depth)
    }
}
