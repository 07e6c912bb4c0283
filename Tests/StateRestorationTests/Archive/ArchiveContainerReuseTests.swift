import Foundation
import StateRestoration
import Testing

/// The coders reuse keyed-container wrappers per key type; these cases must still see
/// containers of their own.
@Suite struct ArchiveContainerReuseTests {
    /// A recursive type: containers of the same key type are open at every level at once.
    struct Node: Codable, Equatable {
        var name: String
        var children: [Node]
        var next: Box?
    }

    final class Box: Codable, Equatable {
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
}
