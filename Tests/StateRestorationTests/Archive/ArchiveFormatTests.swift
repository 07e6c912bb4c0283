import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveFormatTests {
    struct P: Codable, Equatable {
        var x = 1
        var name = "a"
    }

    @Test("the documented example encodes to exactly the documented bytes")
    func documentedExample() throws {
        let expected: [UInt8] = [
            0x53, 0x52, 0x76, 0x01,
            0x02, 0x07,
            0x01, 0x78,
            0x04, 0x6E, 0x61, 0x6D, 0x65,
            0x0E, 0x02, 0x07,
            0x00, 0x03, 0x02,
            0x01, 0x07, 0x01, 0x61,
        ]
        #expect(Array(try ArchiveEncoder().encode(P())) == expected)
        #expect(try ArchiveDecoder().decode(P.self, from: Data(expected)) == P())
    }

    @Test("typed arrays and plain arrays both decode as arrays of scalars")
    func bothArrayForms() throws {
        let typed = Bytes.archive(root: Bytes.container(Bytes.typedArray, count: 2, [Bytes.int, 0x02, 0x03]))
        let plain = Bytes.archive(root: Bytes.container(Bytes.array, count: 2, Bytes.int(1) + Bytes.int(-2)))
        #expect(try ArchiveDecoder().decode([Int].self, from: typed) == [1, -2])
        #expect(try ArchiveDecoder().decode([Int].self, from: plain) == [1, -2])
        #expect(try ArchiveDecoder().decode([Int64?].self, from: typed) == [1, -2])
        #expect(try ArchiveValue(decoding: typed) == ArchiveValue(decoding: plain))
    }

    @Test("a container header longer than one byte is spliced in correctly")
    func largeContainers() throws {
        let long = (0..<300).map { "item \($0)" }
        let nested = [long, [], long]
        #expect(try ArchiveDecoder().decode([[String]].self, from: ArchiveEncoder().encode(nested)) == nested)
        let many = Dictionary(uniqueKeysWithValues: (0..<500).map { ($0, String(repeating: "x", count: $0 % 7)) })
        #expect(try ArchiveDecoder().decode([Int: String].self, from: ArchiveEncoder().encode(many)) == many)
    }
}
