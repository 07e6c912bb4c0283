import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveSizeTests {
    struct Row: Codable {
        var identifier: Int
        var restorationTitle: String
        var isSelected: Bool
        var scrollPosition: Double
    }

    @Test("interned field names make an array of repeated structs much smaller than JSON")
    func internedNamesBeatJSON() throws {
        let rows = (0..<200).map {
            Row(identifier: $0, restorationTitle: "r\($0)", isSelected: $0 % 2 == 0, scrollPosition: 0)
        }
        let archive = try ArchiveEncoder().encode(rows)
        let json = try JSONEncoder().encode(rows)
        let ratio = Double(archive.count) / Double(json.count)
        #expect(ratio < 0.4, "archive \(archive.count) bytes vs JSON \(json.count) bytes (ratio \(ratio))")
        // Each field name is stored once, however many rows use it.
        #expect(occurrences(of: "restorationTitle", in: archive) == 1)
        #expect(occurrences(of: "restorationTitle", in: json) == rows.count)
    }

    @Test("small integers take one byte and large ones more, signed or not")
    func smallIntegersAreSmall() throws {
        let small: [Int] = Array(-64..<64)
        let large: [Int] = small.map { $0 &* 1_000_000_007 &* 1_000_003 }
        let smallArchive = try ArchiveEncoder().encode(small)
        let largeArchive = try ArchiveEncoder().encode(large)
        let empty = try ArchiveEncoder().encode([Int]())
        // 128 small values cost about one byte each over the empty array (the length
        // prefix grows by a byte too).
        #expect(smallArchive.count - empty.count <= 128 + 2)
        #expect(largeArchive.count - empty.count >= 128 * 8)
        let zero = try ArchiveEncoder().encode(0)
        let minusOne = try ArchiveEncoder().encode(-1)
        let big = try ArchiveEncoder().encode(Int.max)
        #expect(zero.count == minusOne.count)
        #expect(big.count > zero.count + 7)
    }

    @Test("the realistic model archive is well under the size of its JSON")
    func modelSmallerThanJSON() throws {
        let value = ScreenState.sample(seed: 4, depth: 3)
        let archive = try ArchiveEncoder().encode(value)
        let jsonEncoder = JSONEncoder()
        jsonEncoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf",
            negativeInfinity: "-inf",
            nan: "nan"
        )
        let json = try jsonEncoder.encode(value)
        #expect(Double(archive.count) / Double(json.count) < 0.6)
    }

    private func occurrences(of needle: String, in data: Data) -> Int {
        let needle = Array(needle.utf8)
        let bytes = Array(data)
        guard bytes.count >= needle.count else { return 0 }
        return (0...(bytes.count - needle.count)).filter { Array(bytes[$0..<($0 + needle.count)]) == needle }.count
    }
}
