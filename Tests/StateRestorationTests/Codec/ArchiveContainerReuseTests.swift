import Foundation
import StateRestoration
import Testing

/// The coders reuse keyed-container wrappers per key type; these cases must still see
/// containers of their own.
@Suite struct ArchiveContainerReuseTests {
    /// A recursive type: containers of the same key type are open at every level at once.
    struct Node: Codable, Equatable, Sendable {
        var name: String
        var children: [Node]
        var next: Box?
    }

    final class Box: Codable, Equatable, Sendable {
        let node: Node
        init(_ node: Node) { self.node = node }
        static func == (lhs: Box, rhs: Box) -> Bool { lhs.node == rhs.node }
    }

    /// Opens two containers of the same key type on the same encoder and decoder, and
    /// keeps the first one after opening the second.
    struct TwoViews: Codable, Equatable {
        var a: Int
        var b: String

        enum CodingKeys: String, CodingKey { case a, b }

        init(a: Int, b: String) {
            self.a = a
            self.b = b
        }

        init(from decoder: any Decoder) throws {
            let first = try decoder.container(keyedBy: CodingKeys.self)
            let second = try decoder.container(keyedBy: CodingKeys.self)
            b = try second.decode(String.self, forKey: .b)
            a = try first.decode(Int.self, forKey: .a)
        }

        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: CodingKeys.self)
            var second = encoder.container(keyedBy: CodingKeys.self)
            try first.encode(a, forKey: .a)
            try second.encode(b, forKey: .b)
        }
    }

    func tree(_ depth: Int, _ seed: Int) -> Node {
        Node(
            name: "n\(seed)",
            children: depth == 0 ? [] : (0..<3).map { tree(depth - 1, seed * 3 + $0) },
            next: depth == 0 ? nil : Box(tree(depth - 1, seed + 100))
        )
    }

    @Test("recursive types round-trip with containers of one key type open at every level")
    func recursive() throws {
        let value = tree(4, 1)
        let data = try ArchiveEncoder().encode(value)
        #expect(try ArchiveDecoder().decode(Node.self, from: data) == value)
        // And again on fresh coders, and on the same coders twice.
        let encoder = ArchiveEncoder()
        #expect(try encoder.encode(value) == data)
        #expect(try encoder.encode(value) == data)
    }

    @Test("two live containers of the same key type on one value stay independent")
    func twoViews() throws {
        let values = [TwoViews(a: 1, b: "x"), TwoViews(a: -7, b: "y")]
        let data = try ArchiveEncoder().encode(values)
        #expect(try ArchiveDecoder().decode([TwoViews].self, from: data) == values)
    }

    /// Keeps its container after `encode(to:)` returns, then writes to it.
    final class Escaper: Encodable {
        enum CodingKeys: String, CodingKey { case x }
        var kept: KeyedEncodingContainer<CodingKeys>?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .x)
            kept = container
        }
    }

    struct Pair: Encodable {
        let first: Escaper
        let second: Escaper
    }

    @Test("an escaped container is not handed out again, and writing to it still throws")
    func escaped() throws {
        let pair = Pair(first: Escaper(), second: Escaper())
        let data = try ArchiveEncoder().encode(pair)
        let value = try ArchiveValue(decoding: data)
        #expect(value["first"]?["x"] == .int(1))
        #expect(value["second"]?["x"] == .int(1))
        #expect(throws: EncodingError.self) { try pair.first.kept?.encode(2, forKey: .x) }
    }

    /// Writes `y`, then tries to write through a container that escaped an earlier encode.
    final class LateWriter: Encodable {
        enum CodingKeys: String, CodingKey { case y }
        let escaped: Escaper
        var lateWriteThrew = false

        init(escaped: Escaper) { self.escaped = escaped }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(5, forKey: .y)
            do {
                try escaped.kept?.encode(99, forKey: .x)
            } catch {
                lateWriteThrew = true
            }
        }
    }

    @Test("a container kept past its encode never writes into a later encode")
    func escapedThenLaterEncode() throws {
        // The kept container must stay with its own, finished encode: writing to it throws
        // and the later archive is the one its own value makes, round after round.
        let alone = try ArchiveEncoder().encode(LateWriter(escaped: Escaper()))
        for _ in 0..<20 {
            let first = Escaper()
            _ = try ArchiveEncoder().encode(first)
            let late = LateWriter(escaped: first)
            let data = try ArchiveEncoder().encode(late)
            #expect(late.lateWriteThrew)
            #expect(data == alone)
        }
    }

    enum Choice: Codable, Equatable {
        case alpha(Int)
        case beta(String)
        case gamma
    }

    struct Padded: Codable, Equatable {
        var zeta: Int
        var beta: String
        var choices: [Choice]
    }

    @Test("enums decode right from archives whose name tables number the case names differently")
    func enumCasesAcrossNameTables() throws {
        // The case names sit at different indices in each archive's name table; round after
        // round, each decode must read its own.
        let choices: [Choice] = [.beta("b"), .alpha(1), .gamma, .beta("c"), .alpha(2)]
        let padded = Padded(zeta: 3, beta: "pad", choices: choices.reversed())
        let plain = try ArchiveEncoder().encode(choices)
        let shifted = try ArchiveEncoder().encode(padded)
        for _ in 0..<3 {
            #expect(try ArchiveDecoder().decode([Choice].self, from: plain) == choices)
            #expect(try ArchiveDecoder().decode(Padded.self, from: shifted) == padded)
        }
    }

    @Test("forty one-entry dictionaries, each with a key of its own, decode right")
    func manySingleKeyDictionaries() throws {
        // `[String: Int]` reads its keys through `allKeys`, one container after another.
        let dictionaries = (0..<40).map { ["k\($0)": $0] }
        let data = try ArchiveEncoder().encode(dictionaries)
        for _ in 0..<3 {
            #expect(try ArchiveDecoder().decode([[String: Int]].self, from: data) == dictionaries)
        }
    }

    @Test("encodes and decodes running at once each get wrappers of their own")
    func concurrentCoding() async throws {
        let values = (0..<8).map { tree(3, $0) }
        let references = try values.map { try ArchiveEncoder().encode($0) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (value, reference) in zip(values, references) {
                group.addTask {
                    for _ in 0..<20 {
                        let data = try ArchiveEncoder().encode(value)
                        guard data == reference else { throw CodingMismatch(what: "encode") }
                        guard try ArchiveDecoder().decode(Node.self, from: data) == value else {
                            throw CodingMismatch(what: "decode")
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    struct XY: Encodable {
        var x = 1
        var y = 2
    }

    struct YZX: Encodable {
        var y = 1
        var z = 2
        var x = 3
    }

    /// The field names of a standalone encoding's name table, in order.
    static func nameTable(_ data: Data) throws -> [String] {
        var bytes = Array(data.dropFirst(4))
        let count = Int(bytes.removeFirst())
        bytes.removeFirst()  // the table's byte length
        var names: [String] = []
        for _ in 0..<count {
            let length = Int(bytes.removeFirst())
            names.append(String(decoding: bytes.prefix(length), as: UTF8.self))
            bytes.removeFirst(length)
        }
        return names
    }

    @Test("each encode numbers its field names in order of first use, whatever encodes before it met")
    func nameTableOrderAcrossEncodes() throws {
        for _ in 0..<3 {
            #expect(try Self.nameTable(ArchiveEncoder().encode(XY())) == ["x", "y"])
            #expect(try Self.nameTable(ArchiveEncoder().encode(YZX())) == ["y", "z", "x"])
            #expect(try Self.nameTable(ArchiveEncoder().encode([YZX(), YZX()])) == ["y", "z", "x"])
        }
        #expect(try ArchiveValue(decoding: ArchiveEncoder().encode(YZX()))["x"] == .int(3))
    }

    @Test("an encode of thousands of distinct names, then ordinary encodes, come out right")
    func manyNames() throws {
        let wide = Dictionary(uniqueKeysWithValues: (0..<3000).map { ("key-\($0)-of-a-wide-dictionary", $0) })
        for _ in 0..<2 {
            let data = try ArchiveEncoder().encode(wide)
            #expect(try ArchiveDecoder().decode([String: Int].self, from: data) == wide)
            #expect(try Self.nameTable(ArchiveEncoder().encode(YZX())) == ["y", "z", "x"])
        }
    }

    /// Keeps its container and then fails, so that the encode ends with the container open.
    final class FailingEscaper: Encodable {
        enum CodingKeys: String, CodingKey { case x, late }
        var kept: KeyedEncodingContainer<CodingKeys>?

        struct Failure: Error {}

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(1, forKey: .x)
            kept = container
            throw Failure()
        }
    }

    @Test("a container left open by a failed encode can still be written, without reaching later encodes")
    func escapedFromFailedEncode() throws {
        let escaper = FailingEscaper()
        #expect(throws: FailingEscaper.Failure.self) { try ArchiveEncoder().encode(escaper) }
        let reference = try ArchiveEncoder().encode(YZX())
        // Its encode is over: the write must not reach the later encode.
        try escaper.kept?.encode(2, forKey: .late)
        #expect(throws: EncodingError.self) { try escaper.kept?.encode(3, forKey: .x) }
        #expect(try ArchiveEncoder().encode(YZX()) == reference)
    }

    @Test("a container left open by a failed encode refuses a key it wrote before")
    func escapedFromFailedEncodeKnownKeyFirst() throws {
        let escaper = FailingEscaper()
        #expect(throws: FailingEscaper.Failure.self) { try ArchiveEncoder().encode(escaper) }
        let reference = try ArchiveEncoder().encode(YZX())
        // `.x` was written by the failed encode: writing it again is a duplicate key, and the
        // later encode is untouched.
        #expect(throws: EncodingError.self) { try escaper.kept?.encode(3, forKey: .x) }
        try escaper.kept?.encode(2, forKey: .late)
        #expect(try ArchiveEncoder().encode(YZX()) == reference)
    }

    /// Keeps the container it decoded from.
    final class KeepingDecoder: Decodable, @unchecked Sendable {
        enum CodingKeys: String, CodingKey { case x, name }
        let kept: KeyedDecodingContainer<CodingKeys>
        let x: Int

        init(from decoder: any Decoder) throws {
            kept = try decoder.container(keyedBy: CodingKeys.self)
            x = try kept.decode(Int.self, forKey: .x)
        }
    }

    struct XName: Codable, Equatable {
        var x: Int
        var name: String
    }

    @Test("a container kept past its decode reads its own input, never a later decode's")
    func keptDecoderContainer() throws {
        let first = try ArchiveDecoder().decode(
            KeepingDecoder.self, from: ArchiveEncoder().encode(XName(x: 1, name: "first")))
        for index in 0..<20 {
            let other = XName(x: 100 + index, name: String(repeating: "o", count: index))
            #expect(try ArchiveDecoder().decode(XName.self, from: ArchiveEncoder().encode(other)) == other)
        }
        #expect(first.x == 1)
        #expect(try first.kept.decode(String.self, forKey: .name) == "first")
        #expect(try first.kept.decode(Int.self, forKey: .x) == 1)
    }

    /// Keeps its keyed container, to open a nested one from it after the coding call has ended.
    final class KeepingNested: Codable, @unchecked Sendable {
        enum CodingKeys: String, CodingKey { case inner }
        enum InnerKeys: String, CodingKey { case x }
        var decoded: KeyedDecodingContainer<CodingKeys>?
        let encoded = Escaper()

        final class Escaper: @unchecked Sendable {
            var kept: KeyedEncodingContainer<CodingKeys>?
        }

        init() {}

        required init(from decoder: any Decoder) throws {
            decoded = try decoder.container(keyedBy: CodingKeys.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            var inner = container.nestedContainer(keyedBy: InnerKeys.self, forKey: .inner)
            try inner.encode(1, forKey: .x)
            encoded.kept = container
        }
    }

    /// An object that only a coding call's user info holds.
    final class Marker: Sendable {}

    @Test("a keyed container used after its decode has ended lets the decode's state go with it")
    func keptDecoderContainerReleasesItsState() throws {
        weak var marker: Marker?
        let data = try ArchiveEncoder().encode(KeepingNested())
        do {
            let strong = Marker()
            marker = strong
            var decoder = ArchiveDecoder()
            decoder.userInfo[try #require(CodingUserInfoKey(rawValue: "marker"))] = strong
            let value = try decoder.decode(KeepingNested.self, from: data)
            let inner = try value.decoded?.nestedContainer(keyedBy: KeepingNested.InnerKeys.self, forKey: .inner)
            #expect(try inner?.decode(Int.self, forKey: .x) == 1)
        }
        #expect(marker == nil)
    }

    @Test("a keyed container used after its encode has ended lets the encode's state go with it")
    func keptEncoderContainerReleasesItsState() throws {
        weak var marker: Marker?
        do {
            let strong = Marker()
            marker = strong
            var encoder = ArchiveEncoder()
            encoder.userInfo[try #require(CodingUserInfoKey(rawValue: "marker"))] = strong
            let value = KeepingNested()
            _ = try encoder.encode(value)
            var late = value.encoded.kept?.nestedContainer(keyedBy: KeepingNested.InnerKeys.self, forKey: .inner)
            #expect(throws: EncodingError.self) { try late?.encode(2, forKey: .x) }
        }
        #expect(marker == nil)
    }

    @Test("decodes of inputs that fail, then succeed, on reused states come out right")
    func decodesAfterFailures() throws {
        let good = XName(x: 7, name: "seven")
        let data = try ArchiveEncoder().encode(good)
        for cut in [0, 3, 5, data.count - 1] {
            #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(XName.self, from: data.prefix(cut)) }
            #expect(try ArchiveDecoder().decode(XName.self, from: data) == good, "after a cut at \(cut)")
        }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([Int].self, from: data) }
        #expect(try ArchiveDecoder().decode(XName.self, from: data) == good)
    }

    struct CodingMismatch: Error, CustomStringConvertible {
        var what: String
        var description: String { "a concurrent \(what) gave another result than a serial one" }
    }
}
