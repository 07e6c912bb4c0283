import Foundation
import Testing

@testable import StateRestoration

/// Coding states keep their keyed-container wrappers from one call to the next; a state that
/// no pool keeps must still be freed, wrappers and all, and a state that grew large must
/// give the memory back before it is kept.
@Suite struct ArchiveStateReuseTests {
    struct Point: Codable, Equatable {
        var x: Double
        var y: Double

        enum CodingKeys: String, CodingKey { case x, y }
    }

    struct Shape: Codable, Equatable {
        var name: String
        var points: [Point]
        var tags: [String: Int]
    }

    static let shape = Shape(
        name: "route", points: (0..<40).map { Point(x: Double($0) / 8, y: -Double($0)) }, tags: ["a": 1, "b": 2])

    /// Encodes `value` on `state` as `ArchiveEncoder.encode(_:)` does, without the pool.
    static func encode(_ value: some Encodable, on state: ArchiveEncodingState) throws -> Data {
        state.takeNameBook()
        defer { state.returnNameBook() }
        try state.encodeGeneric(value, parent: -1, depth: 0)
        return state.finish()
    }

    @Test("an encoding state that no pool keeps is freed with the wrappers it cached")
    func encodingStateFreed() throws {
        weak var freed: ArchiveEncodingState?
        do {
            let state = ArchiveEncodingState(userInfo: [:])
            freed = state
            let data = try Self.encode(Self.shape, on: state)
            state.containers.endCall()
            // The wrappers stay in the cache for a later call, and do not hold the state.
            #expect(!state.containers.isEmpty)
            #expect(try ArchiveDecoder().decode(Shape.self, from: data) == Self.shape)
        }
        #expect(freed == nil)
    }

    @Test("a decoding state that no pool keeps is freed with the wrappers it cached")
    func decodingStateFreed() throws {
        let data = try ArchiveEncoder().encode(Self.shape)
        weak var freed: ArchiveDecodingState?
        do {
            let state = try ArchiveDecodingState(copying: data, maximumDepth: 64, userInfo: [:])
            freed = state
            let decoded = try state.decodeGeneric(
                Shape.self, at: state.rootPosition, implied: ArchiveTag.none, depth: 0)
            state.containers.endCall()
            #expect(!state.containers.isEmpty)
            #expect(decoded == Self.shape)
        }
        #expect(freed == nil)
    }

    /// Keeps the last container it opened.
    final class Escaper: @unchecked Sendable {
        var kept: KeyedEncodingContainer<Point.CodingKeys>?
    }

    struct Escaping: Encodable {
        let escaper: Escaper
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Point.CodingKeys.self)
            try container.encode(1.5, forKey: .x)
            escaper.kept = container
        }
    }

    @Test("a container that escaped its encode keeps its state alive until it goes")
    func escapedContainerKeepsState() throws {
        let escaper = Escaper()
        weak var kept: ArchiveEncodingState?
        do {
            let state = ArchiveEncodingState(userInfo: [:])
            kept = state
            _ = try Self.encode(Escaping(escaper: escaper), on: state)
            state.containers.endCall()
        }
        #expect(kept != nil)
        #expect(throws: EncodingError.self) { try escaper.kept?.encode(2, forKey: .y) }
        escaper.kept = nil
        #expect(kept == nil)
    }

    @Test("a container made after its state's call ended keeps the state alive, not a cached wrapper that does not")
    func containerAfterTheCall() throws {
        weak var kept: ArchiveEncodingState?
        var later: KeyedEncodingContainer<Point.CodingKeys>?
        do {
            let state = ArchiveEncodingState(userInfo: [:])
            kept = state
            // Caches a wrapper for Point's keys, which nothing holds when the call ends.
            _ = try Self.encode(Self.shape, on: state)
            state.containers.endCall()
            later = state.keyedContainer(Point.CodingKeys.self, frame: 0, depth: 0)
        }
        #expect(kept != nil)
        #expect(later != nil)
        later = nil
        #expect(kept == nil)
    }

    @Test("the encoder's name table reads back as the names the decoder finds, long and non-ASCII ones included")
    func nameTableReadsBack() throws {
        let keys = [
            "a", String(repeating: "x", count: 200), "café", "Zürich " + String(repeating: "é", count: 100), "",
        ]
        let value = Dictionary(uniqueKeysWithValues: keys.enumerated().map { ($1, $0) })
        let state = ArchiveEncodingState(userInfo: [:])
        let data = try Self.encode(value, on: state)
        let decoding = try ArchiveDecodingState(copying: data, maximumDepth: 64, userInfo: [:])
        #expect(Set(state.tableNames()) == Set(keys))
        #expect(state.tableNames() == decoding.names)
    }

    @Test("an encoding state that grew past the kept limits is not kept")
    func encodingStateTooLarge() throws {
        let small = ArchiveEncodingState(userInfo: [:])
        _ = try Self.encode(Self.shape, on: small)
        #expect(small.isSmallEnoughToKeep)

        let large = ArchiveEncodingState(userInfo: [:])
        _ = try Self.encode(Data(repeating: 7, count: ArchiveEncodingState.maximumKeptCapacity + 1), on: large)
        #expect(!large.isSmallEnoughToKeep)

        // Many names: the name table's bytes and the key owners, one per name.
        var names: [String: Int] = [:]
        for index in 0...ArchiveEncodingState.maximumKeptNames { names["name\(index)"] = index }
        let named = ArchiveEncodingState(userInfo: [:])
        _ = try Self.encode(names, on: named)
        #expect(!named.isSmallEnoughToKeep)
    }

    @Test("a decoding state whose input copy or name table grew past the kept limits is not kept")
    func decodingStateTooLarge() throws {
        let small = try ArchiveDecodingState(
            copying: ArchiveEncoder().encode(Self.shape), maximumDepth: 64, userInfo: [:])
        #expect(small.isSmallEnoughToKeep)

        var names: [String: Int] = [:]
        for index in 0...ArchiveDecodingState.maximumKeptNames { names["name\(index)"] = index }
        let named = try ArchiveDecodingState(copying: ArchiveEncoder().encode(names), maximumDepth: 64, userInfo: [:])
        #expect(!named.isSmallEnoughToKeep)

        let large = try ArchiveEncoder().encode(Data(count: ArchiveDecodingState.maximumKeptCapacity + 1))
        let copy = try ArchiveDecodingState(copying: large, maximumDepth: 64, userInfo: [:])
        #expect(!copy.isSmallEnoughToKeep)

        // Few names, but long ones: only the kept bytes of the table are past their limit.
        let longNames = Dictionary(
            uniqueKeysWithValues: (0..<700).map { (String(repeating: "n", count: 100) + "\($0)", $0) })
        let table = try ArchiveDecodingState(
            copying: ArchiveEncoder().encode(longNames), maximumDepth: 64, userInfo: [:])
        #expect(table.names.count == 700)
        #expect(table.names.capacity <= ArchiveDecodingState.maximumKeptNames)
        #expect(!table.isSmallEnoughToKeep)
    }

    struct AB: Codable, Equatable {
        var a: Int
        var b: Int
    }

    /// The same fields as ``AB``, first used in the other order: a name table of the same
    /// length as ``AB``'s whose names have each other's indices.
    struct BA: Codable, Equatable {
        var b: Int
        var a: Int
    }

    /// Ends `state`'s decode and starts it on `data`, as the pool does with a kept state.
    static func reuse(_ state: ArchiveDecodingState, for data: Data) throws(ArchiveError) {
        state.containers.endCall()
        state.reset()
        try state.start(copying: data)
    }

    /// Decodes the input `state` started on as a `T`, and ends the call.
    static func decode<T: Decodable>(_: T.Type, on state: ArchiveDecodingState) throws -> T {
        defer { state.containers.endCall() }
        return try state.decodeGeneric(T.self, at: state.rootPosition, implied: ArchiveTag.none, depth: 0)
    }

    @Test("a reused decoding state keeps its field-name table only for an input whose table has the same bytes")
    func nameTableKeptForSameBytes() throws {
        let ab = try ArchiveEncoder().encode(AB(a: 1, b: 2))
        let ba = try ArchiveEncoder().encode(BA(b: 20, a: 10))
        // Same table length, other bytes: a state that compared lengths only would swap a and b.
        #expect(ab.count == ba.count && ab != ba)
        let state = try ArchiveDecodingState(copying: ab, maximumDepth: 64, userInfo: [:])
        #expect(try Self.decode(AB.self, on: state) == AB(a: 1, b: 2))
        let kept = state.tableBytes
        #expect(kept == Array(ab[4..<(4 + kept.count)]))

        try Self.reuse(state, for: ab)
        #expect(state.tableBytes == kept)
        #expect(try Self.decode(AB.self, on: state) == AB(a: 1, b: 2))

        try Self.reuse(state, for: ba)
        #expect(state.names == ["b", "a"])
        #expect(try Self.decode(AB.self, on: state) == AB(a: 10, b: 20))

        try Self.reuse(state, for: ab)
        #expect(state.names == ["a", "b"])
        #expect(try Self.decode(AB.self, on: state) == AB(a: 1, b: 2))
    }

    @Test("a name table that failed to read is not kept: an input with the last good table's bytes takes that one back")
    func failedNameTableNotKept() throws {
        let ab = try ArchiveEncoder().encode(AB(a: 1, b: 2))
        // AB's table is count 2, length 4, then 1 "a" 1 "b": make the second name "a" too.
        var duplicate = ab
        #expect(Array(ab[4..<10]) == [2, 4, 1, UInt8(ascii: "a"), 1, UInt8(ascii: "b")])
        duplicate[9] = UInt8(ascii: "a")

        let state = try ArchiveDecodingState(copying: ab, maximumDepth: 64, userInfo: [:])
        #expect(try Self.decode(AB.self, on: state) == AB(a: 1, b: 2))
        #expect(throws: ArchiveError.self) { try Self.reuse(state, for: duplicate) }
        #expect(state.tableBytes.isEmpty)
        // The good table went to the earlier tables before the read; the failed one goes nowhere.
        #expect(state.earlierTables.map(\.names) == [["a", "b"]])
        // The failed table's names go when the state is kept (a hostile table's can be large).
        state.containers.endCall()
        state.reset()
        #expect(state.names.isEmpty)
        try state.start(copying: ab)
        #expect(state.names == ["a", "b"])
        #expect(state.earlierTables.isEmpty)
        #expect(try Self.decode(AB.self, on: state) == AB(a: 1, b: 2))
    }

    @Test("a table that failed to read leaves no room behind for the tables read after it to carry along")
    func failedTableLeavesNoRoom() throws {
        // A table that declares 4,000 empty names: the second is a duplicate, so the read fails
        // after making room for all of them.
        var hostile = Data("SRv".utf8) + [ArchiveFormat.version]
        hostile += [0xA0, 0x1F, 0xA0, 0x1F] + Data(count: 4000)
        let state = try ArchiveDecodingState(
            copying: ArchiveEncoder().encode(AB(a: 1, b: 2)), maximumDepth: 64, userInfo: [:])
        for (index, data) in try Self.distinctTables(8).enumerated() {
            #expect(throws: ArchiveError.self) { try Self.reuse(state, for: hostile) }
            try Self.reuse(state, for: data)
            #expect(try Self.decode([String: Int].self, on: state) == ["k\(index)-0": 0])
        }
        #expect(state.earlierTables.count == 8)
        for table in state.earlierTables {
            #expect(table.names.capacity < 100 && table.indexByName.capacity < 100)
        }
    }

    /// A value whose field name is longer than 15 bytes, so that a `String` of it has storage
    /// of its own, and whose key makes that name anew at every use, as a key built at run
    /// time does.
    struct Long: Codable, Equatable {
        static let name = "a field name longer than fifteen bytes"
        var value: Int

        struct Key: CodingKey {
            var stringValue: String { ["a field name longer", " than fifteen bytes"].joined() }
            init?(stringValue: String) { guard stringValue == Long.name else { return nil } }
            init() {}
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        init(value: Int) { self.value = value }

        init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: Key.self).decode(Int.self, forKey: Key())
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(value, forKey: Key())
        }
    }

    /// Archives of `count` dictionaries whose keys differ from one to the next, so that each
    /// has a field-name table of its own: `names` keys each, `"<prefix><i>-<j>"`.
    static func distinctTables(_ count: Int, names: Int = 1, prefix: String = "k") throws -> [Data] {
        try (0..<count).map { table in
            try ArchiveEncoder().encode(
                Dictionary(uniqueKeysWithValues: (0..<names).map { ("\(prefix)\(table)-\($0)", $0) }))
        }
    }

    @Test("a kept name table is not read again: its names stay the same strings until it leaves the earlier tables")
    func keptTableNotReadAgain() throws {
        let long = try ArchiveEncoder().encode(Long(value: 5))
        let ab = try ArchiveEncoder().encode(AB(a: 1, b: 2))
        let state = try ArchiveDecodingState(copying: long, maximumDepth: 64, userInfo: [:])
        #expect(try Self.decode(Long.self, on: state) == Long(value: 5))
        // A long name's words are its storage: a table read again makes new strings (this one
        // is held, so that no new string can take its address).
        let first = state.names[0]
        let words = ArchiveNameCache.words(of: first)
        try Self.reuse(state, for: long)
        #expect(state.names == [Long.name])
        #expect(ArchiveNameCache.words(of: state.names[0]) == words)
        #expect(try Self.decode(Long.self, on: state) == Long(value: 5))
        // Another table, then this one again: taken back from the earlier tables, not read.
        try Self.reuse(state, for: ab)
        #expect(try Self.decode(AB.self, on: state) == AB(a: 1, b: 2))
        try Self.reuse(state, for: long)
        #expect(state.names == [Long.name])
        #expect(ArchiveNameCache.words(of: state.names[0]) == words)
        #expect(try Self.decode(Long.self, on: state) == Long(value: 5))
        // As many other tables as the earlier tables hold, with AB's among them: still kept.
        for data in try Self.distinctTables(ArchiveDecodingState.maximumEarlierTables - 1) {
            try Self.reuse(state, for: data)
        }
        #expect(state.earlierTables.count == ArchiveDecodingState.maximumEarlierTables)
        try Self.reuse(state, for: long)
        #expect(ArchiveNameCache.words(of: state.names[0]) == words)
        // One more other table than the earlier tables hold pushes it out: it is read again.
        for data in try Self.distinctTables(ArchiveDecodingState.maximumEarlierTables + 1, prefix: "m") {
            try Self.reuse(state, for: data)
        }
        try Self.reuse(state, for: long)
        #expect(state.names == [Long.name])
        #expect(ArchiveNameCache.words(of: state.names[0]) != words)
        #expect(try Self.decode(Long.self, on: state) == Long(value: 5))
        withExtendedLifetime(first) {}
    }

    @Test("an earlier table is taken back only for an input whose table has its bytes, not just its length")
    func earlierTableForSameBytes() throws {
        let ab = try ArchiveEncoder().encode(AB(a: 1, b: 2))
        let ba = try ArchiveEncoder().encode(BA(b: 20, a: 10))
        let other = try ArchiveEncoder().encode(Long(value: 5))
        let state = try ArchiveDecodingState(copying: ab, maximumDepth: 64, userInfo: [:])
        #expect(try Self.decode(AB.self, on: state) == AB(a: 1, b: 2))
        try Self.reuse(state, for: ba)
        try Self.reuse(state, for: other)
        // The earlier tables are AB's and BA's, of one length: the newest, BA's, is not AB's.
        #expect(state.earlierTables.map(\.names) == [["a", "b"], ["b", "a"]])
        for _ in 0..<3 {
            try Self.reuse(state, for: ab)
            #expect(state.names == ["a", "b"])
            #expect(try Self.decode(AB.self, on: state) == AB(a: 1, b: 2))
            try Self.reuse(state, for: ba)
            #expect(state.names == ["b", "a"])
            #expect(try Self.decode(AB.self, on: state) == AB(a: 10, b: 20))
            try Self.reuse(state, for: other)
            #expect(try Self.decode(Long.self, on: state) == Long(value: 5))
        }
        // Each table is either the state's or an earlier one, once.
        #expect(state.earlierTables.count == 2)
    }

    @Test("the earlier tables stay within their bounds of tables, bytes and names, the least recently used going first")
    func earlierTablesBounded() throws {
        let state = try ArchiveDecodingState(
            copying: ArchiveEncoder().encode(AB(a: 1, b: 2)), maximumDepth: 64, userInfo: [:])
        func check(_ archives: [Data], keepsNewest: Bool = true) throws {
            for data in archives {
                try Self.reuse(state, for: data)
                let tables = state.earlierTables
                #expect(tables.count <= ArchiveDecodingState.maximumEarlierTables)
                #expect(tables.map(\.bytes.count).reduce(0, +) <= ArchiveDecodingState.maximumEarlierTableBytes)
                #expect(tables.map(\.names.count).reduce(0, +) <= ArchiveDecodingState.maximumEarlierNames)
            }
            guard keepsNewest else { return }
            // The newest are kept: the table before the current one is the last earlier one.
            let previous = try ArchiveDecodingState(
                copying: archives[archives.count - 2], maximumDepth: 64, userInfo: [:])
            #expect(state.earlierTables.last?.bytes == previous.tableBytes)
        }
        // Many small tables; tables of long names (about 2 KB each); tables of many names.
        try check(Self.distinctTables(100))
        #expect(state.earlierTables.count == ArchiveDecodingState.maximumEarlierTables)
        try check(Self.distinctTables(20, names: 16, prefix: String(repeating: "long", count: 30)))
        #expect(state.earlierTables.count < 16)
        try check(Self.distinctTables(20, names: 200))
        #expect(state.earlierTables.count < 8)
        // A table past the bytes bound by itself is dropped at once.
        try check(Self.distinctTables(3, names: 100, prefix: String(repeating: "x", count: 200)), keepsNewest: false)
        #expect(state.earlierTables.isEmpty)
    }

    @Test("keys made at run time do not build up in a state that keeps its table from decode to decode")
    func runTimeKeysDoNotBuildUp() throws {
        let long = try ArchiveEncoder().encode(Long(value: 5))
        let state = try ArchiveDecodingState(copying: long, maximumDepth: 64, userInfo: [:])
        for _ in 0..<300 {
            #expect(try Self.decode(Long.self, on: state) == Long(value: 5))
            try Self.reuse(state, for: long)
        }
        // Each decode added its own key string to the name cache; they went with each decode.
        #expect(!state.nameCache.isFull)
        #expect(try Self.decode(Long.self, on: state) == Long(value: 5))
    }

    @Test("decodes through the pool of values whose name tables alternate stay right")
    func alternatingTablesThroughPool() throws {
        let ab = try ArchiveEncoder().encode(AB(a: 1, b: 2))
        let ba = try ArchiveEncoder().encode(BA(b: 20, a: 10))
        for _ in 0..<50 {
            #expect(try ArchiveDecoder().decode(AB.self, from: ab) == AB(a: 1, b: 2))
            #expect(try ArchiveDecoder().decode(AB.self, from: ab) == AB(a: 1, b: 2))
            #expect(try ArchiveDecoder().decode(AB.self, from: ba) == AB(a: 10, b: 20))
            #expect(try ArchiveDecoder().decode(BA.self, from: ab) == BA(b: 2, a: 1))
        }
    }

    /// A recursive value that keeps the container of its outermost level, opened before the
    /// inner levels' containers of the same key type replaced its wrapper in the cache.
    final class Chain: Encodable, @unchecked Sendable {
        enum CodingKeys: String, CodingKey { case value, next }
        let next: Chain?
        let escaper: ChainEscaper

        init(depth: Int, escaper: ChainEscaper) {
            self.next = depth > 0 ? Chain(depth: depth - 1, escaper: escaper) : nil
            self.escaper = escaper
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .value)
            try container.encodeIfPresent(next, forKey: .next)
            // The outermost level returns last, so its container is the one kept.
            escaper.kept = container
        }
    }

    final class ChainEscaper: @unchecked Sendable {
        var kept: KeyedEncodingContainer<Chain.CodingKeys>?
    }

    @Test("a container whose wrapper a newer one of its key type replaced keeps its state alive when it escapes")
    func replacedWrapperKeepsState() throws {
        let escaper = ChainEscaper()
        weak var kept: ArchiveEncodingState?
        do {
            let state = ArchiveEncodingState(userInfo: [:])
            kept = state
            _ = try Self.encode(Chain(depth: 3, escaper: escaper), on: state)
            state.containers.endCall()
        }
        #expect(kept != nil)
        #expect(throws: EncodingError.self) { try escaper.kept?.encode(2, forKey: .value) }
        escaper.kept = nil
        #expect(kept == nil)
    }

    /// Keeps the container it decoded from.
    final class KeepingPoint: Decodable, @unchecked Sendable {
        let kept: KeyedDecodingContainer<Point.CodingKeys>
        init(from decoder: any Decoder) throws {
            kept = try decoder.container(keyedBy: Point.CodingKeys.self)
        }
    }

    @Test("a container that escaped its decode keeps its state alive until it goes, and reads its own input")
    func escapedDecodingContainerKeepsState() throws {
        let data = try ArchiveEncoder().encode(Point(x: 1.5, y: -2))
        weak var kept: ArchiveDecodingState?
        var escaped: KeepingPoint?
        do {
            let state = try ArchiveDecodingState(copying: data, maximumDepth: 64, userInfo: [:])
            kept = state
            escaped = try state.decodeGeneric(
                KeepingPoint.self, at: state.rootPosition, implied: ArchiveTag.none, depth: 0)
            state.containers.endCall()
        }
        #expect(kept != nil)
        #expect(try escaped?.kept.decode(Double.self, forKey: .y) == -2)
        escaped = nil
        #expect(kept == nil)
    }

    @Test("large encodes and decodes between small ones leave every result right")
    func largeBetweenSmall() throws {
        let large = Data((0..<(ArchiveEncodingState.maximumKeptCapacity + 4096)).map { UInt8(truncatingIfNeeded: $0) })
        for _ in 0..<3 {
            let small = try ArchiveEncoder().encode(Self.shape)
            #expect(try ArchiveDecoder().decode(Shape.self, from: small) == Self.shape)
            let big = try ArchiveEncoder().encode(large)
            #expect(try ArchiveDecoder().decode(Data.self, from: big) == large)
        }
    }
}
