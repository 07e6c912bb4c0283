import Foundation
import StateRestoration
import Testing

/// Rows written by hand as keyed containers nested in an unkeyed one (a table
/// whose rows are objects), checking the unkeyed containers' counts on both sides.
private struct Table: Codable, Equatable {
    struct Row: Equatable {
        var id: Int
        var label: String?
    }

    var rows: [Row]
    /// The encoder's `count` after each row, recorded while encoding.
    nonisolated(unsafe) static var countsWhileEncoding: [Int] = []

    enum Keys: String, CodingKey { case id, label }

    init(rows: [Row]) { self.rows = rows }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        Self.countsWhileEncoding = [container.count]
        for row in rows {
            var keyed = container.nestedContainer(keyedBy: Keys.self)
            try keyed.encode(row.id, forKey: .id)
            try keyed.encodeIfPresent(row.label, forKey: .label)
            Self.countsWhileEncoding.append(container.count)
        }
    }

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        rows = []
        while !container.isAtEnd {
            let index = container.currentIndex
            let keyed = try container.nestedContainer(keyedBy: Keys.self)
            guard keyed.codingPath.last?.intValue == index else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "row \(index) has coding path \(keyed.codingPath)")
            }
            rows.append(
                Row(
                    id: try keyed.decode(Int.self, forKey: .id),
                    label: try keyed.decodeIfPresent(String.self, forKey: .label)))
        }
        guard container.count == rows.count else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "count \(container.count ?? -1), read \(rows.count)")
        }
    }
}

/// Reads one element more than an unkeyed container holds.
private struct Overread: Decodable {
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        _ = try container.decode(Int.self)
        _ = try container.decode(Int.self)
        _ = try container.decode(Int.self)
    }
}

/// Writes to a nested unkeyed container after its parent has moved on.
private struct InterleavedUnkeyed: Encodable {
    func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        var nested = container.nestedUnkeyedContainer()
        try container.encode(1)
        try nested.encode(2)
    }
}

/// Opens a keyed container nested in an unkeyed one where the element is not keyed.
private struct RowsExpected: Decodable {
    enum Keys: String, CodingKey { case id }
    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        _ = try container.nestedContainer(keyedBy: Keys.self)
    }
}

@Suite(.serialized) struct ArchiveUnkeyedContainerTests {
    @Test("keyed rows nested in an unkeyed container round-trip, and the encoder counts them as they are added")
    func keyedRowsInUnkeyed() throws {
        let table = Table(rows: [.init(id: 1, label: "one"), .init(id: 2, label: nil), .init(id: 30, label: "thirty")])
        let data = try ArchiveEncoder().encode(table)
        #expect(Table.countsWhileEncoding == [0, 1, 2, 3])
        #expect(try ArchiveDecoder().decode(Table.self, from: data) == table)
        // The archive holds the rows as objects, not as anything flattened.
        guard case .array(let rows) = try ArchiveValue(decoding: data) else {
            Issue.record("the table is not an array")
            return
        }
        #expect(rows.count == 3)
        #expect(rows[1]["id"] == .int(2))
        #expect(rows[1]["label"] == nil)
        #expect(rows[2]["label"] == .string("thirty"))
    }

    @Test("an empty table round-trips with a count of zero")
    func emptyTable() throws {
        let data = try ArchiveEncoder().encode(Table(rows: []))
        #expect(Table.countsWhileEncoding == [0])
        #expect(try ArchiveDecoder().decode(Table.self, from: data) == Table(rows: []))
    }

    @Test("reading past the end of an unkeyed container names the index it wanted")
    func readPastEnd() throws {
        let data = try ArchiveEncoder().encode([10, 20])
        do {
            _ = try ArchiveDecoder().decode(Overread.self, from: data)
            Issue.record("decoded three elements out of two")
        } catch DecodingError.valueNotFound(_, let context) {
            #expect(context.codingPath.map { $0.intValue } == [2])
            #expect(context.debugDescription.contains("all 2 elements were read"))
        }
    }

    @Test("a keyed row where the archive holds a scalar is a type mismatch at that index")
    func rowOfWrongKind() throws {
        let data = try ArchiveEncoder().encode([7])
        do {
            _ = try ArchiveDecoder().decode(RowsExpected.self, from: data)
            Issue.record("opened a keyed container over an integer")
        } catch DecodingError.typeMismatch(_, let context) {
            #expect(context.codingPath.map { $0.intValue } == [0])
        }
    }

    @Test("writing to a nested unkeyed container after its parent moved on throws instead of corrupting")
    func interleavedUnkeyedThrows() throws {
        #expect(throws: EncodingError.self) {
            try ArchiveEncoder().encode(InterleavedUnkeyed())
        }
        // The encoder is usable again afterwards.
        let encoder = ArchiveEncoder()
        _ = try? encoder.encode(InterleavedUnkeyed())
        #expect(try ArchiveDecoder().decode([Int].self, from: try encoder.encode([4, 5])) == [4, 5])
    }
}
