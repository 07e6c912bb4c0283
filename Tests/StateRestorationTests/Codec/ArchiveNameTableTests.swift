import Foundation
import StateRestoration
import Testing

/// The field-name table: names are told apart, and keys find them, as `String` equality
/// says (canonical equivalence), whether a name is short or long, ASCII or not, among few
/// names or hundreds.
@Suite struct ArchiveNameTableTests {
    /// A key with any string.
    struct AnyKey: CodingKey {
        var stringValue: String
        init(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    /// Reads one integer under the key the decoder's `userInfo` names.
    struct Field: Decodable {
        var value: Int
        init(from decoder: any Decoder) throws {
            let key = try #require(decoder.userInfo.first { $0.key.rawValue == "key" }?.value as? String)
            value = try decoder.container(keyedBy: AnyKey.self).decode(Int.self, forKey: AnyKey(stringValue: key))
        }
    }

    /// The value under `key` in an archive whose root is a keyed container of `names`, the
    /// one at `index` holding 7 and the others 0.
    private func read(_ key: String, names: [String], valueAt index: Int) throws -> Int {
        let entries = names.indices.map { ($0, Bytes.int($0 == index ? 7 : 0)) }
        var decoder = ArchiveDecoder()
        decoder.userInfo[try #require(CodingUserInfoKey(rawValue: "key"))] = key
        return try decoder.decode(Field.self, from: Bytes.archive(names: names, root: Bytes.keyed(entries))).value
    }

    /// 300 short ASCII names.
    private let many = (0..<300).map { "n\($0)" }
    private let long = "a field name longer than fifteen bytes"

    @Test("a name written twice is refused: short or long, among few names or hundreds, or equal with other bytes")
    func duplicateNames() throws {
        let tables: [[String]] = [
            many + ["n3"],  // a short name early in the table
            many + ["n280"],  // a short name late in the table
            ["x", long, "y", long],  // a long name
            many + [long, "z", long],
            ["caf\u{E9}", "cafe\u{301}"],  // the same word, composed and decomposed
            ["K", "\u{212A}"],  // "K" and the Kelvin sign, which String equality deems equal
            ["\u{212A}", "b", "K"],
        ]
        for names in tables {
            let data = Bytes.archive(names: names, root: [Bytes.null])
            let error = #expect(throws: ArchiveError.self, "\(names.suffix(3))") { try ArchiveValue(decoding: data) }
            #expect(error?.code == .duplicateKey)
            #expect(error?.message.contains("duplicate field name") == true)
            let decodeError = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Int?.self, from: data) }
            #expect(decodeError.map(archiveCode(of:)) == .duplicateKey)
        }
        // Distinct names, of every kind, are all accepted.
        let distinct = many + [long, long + "!", "caf\u{E9}", "K"]
        #expect(try ArchiveDecoder().decode(Int?.self, from: Bytes.archive(names: distinct, root: [Bytes.null])) == nil)
    }

    @Test("a key finds its name wherever it sits in the table, and by String equality")
    func keysFindNames() throws {
        let names = many + [long, "caf\u{E9}", "K", "\u{3A9}mega"]
        for index in [0, 3, 255, 256, 280, 299] {
            #expect(try read("n\(index)", names: names, valueAt: index) == 7)
        }
        #expect(try read(long, names: names, valueAt: 300) == 7)
        // A key equal to a name with other bytes: decomposed, the Kelvin sign, the ohm sign.
        #expect(try read("cafe\u{301}", names: names, valueAt: 301) == 7)
        #expect(try read("\u{212A}", names: names, valueAt: 302) == 7)
        #expect(try read("\u{2126}mega", names: names, valueAt: 303) == 7)
        // The same in a table of ASCII names only, where no name's bytes are the key's.
        #expect(try read("\u{212A}", names: ["a", "K", long], valueAt: 1) == 7)
        // And the other way round: an ASCII key, a name that is not ASCII.
        #expect(try read("K", names: ["a", "\u{212A}"], valueAt: 1) == 7)
        // A short key that is not a small string (made with room to grow) finds its name too.
        var roomy = String()
        roomy.reserveCapacity(64)
        roomy += "n12"
        #expect(withUnsafeBytes(of: roomy, Array.init) != withUnsafeBytes(of: "n12", Array.init))
        #expect(try read(roomy, names: names, valueAt: 12) == 7)
        var roomyLate = String()
        roomyLate.reserveCapacity(64)
        roomyLate += "n290"
        #expect(try read(roomyLate, names: names, valueAt: 290) == 7)
        // A key that is in no table is missing, short or long.
        for absent in ["n300", "N1", long + ".", "caf\u{E8}"] {
            let error = #expect(throws: DecodingError.self, "\(absent)") { try read(absent, names: names, valueAt: 0) }
            guard case .keyNotFound = error else {
                Issue.record("\(absent): \(String(describing: error))")
                continue
            }
        }
    }

    @Test("a dictionary of hundreds of short keys round-trips")
    func manyKeys() throws {
        let dictionary = Dictionary(uniqueKeysWithValues: many.enumerated().map { ($1, $0) })
        let data = try ArchiveEncoder().encode(dictionary)
        #expect(try ArchiveDecoder().decode([String: Int].self, from: data) == dictionary)
    }
}
