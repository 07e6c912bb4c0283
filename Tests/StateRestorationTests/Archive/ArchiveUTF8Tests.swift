import Foundation
import Testing

@testable import StateRestoration

/// The archive's own UTF-8 validator agrees with the standard library's on every byte
/// sequence that matters, wherever the sequence falls within a word, and whatever follows the
/// string in memory.
@Suite struct ArchiveUTF8Tests {
    /// What the standard library says of `bytes`: nil if ill-formed, else the string.
    private func reference(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// Runs the archive's validator and string maker on `bytes`, placed `offset` bytes into a
    /// buffer after ASCII filler and followed by 8 bytes of `trailer` (which the validator's last
    /// word reads and must ignore), and compares both with the standard library.
    ///
    /// - Returns: what disagreed, or nil.
    private func disagreement(_ bytes: [UInt8], offset: Int, trailer: UInt8) -> String? {
        var buffer = [UInt8](repeating: 0x61, count: offset)
        buffer += bytes
        buffer += [UInt8](repeating: trailer, count: 8)
        let expected = reference(bytes)
        let (verdict, made) = buffer.withUnsafeBufferPointer { all -> (Bool?, String?) in
            // Never empty: the trailer is always there.
            guard let base = all.baseAddress else { return (nil, nil) }
            let start = base + offset
            return (ArchiveUTF8.validate(start, count: bytes.count), ArchiveUTF8.string(start, count: bytes.count))
        }
        let what = "[\(bytes.map { String($0, radix: 16) }.joined(separator: " "))] at \(offset) before \(trailer)"
        guard let expected else {
            return verdict == nil && made == nil ? nil : "\(what): accepted, the standard library refuses it"
        }
        guard let verdict, let made else { return "\(what): refused, the standard library accepts it" }
        if verdict != bytes.allSatisfy({ $0 < 0x80 }) { return "\(what): ASCII judged \(verdict)" }
        // A string marked ASCII when it is not would count its characters by bytes.
        if made != expected || made.count != expected.count
            || Array(made.unicodeScalars) != Array(expected.unicodeScalars)
        {
            return "\(what): made \(made.debugDescription), expected \(expected.debugDescription)"
        }
        return nil
    }

    @Test("every one- and two-byte sequence, at each offset in a word, is judged as the standard library judges it")
    func everyShortSequence() {
        var failures: [String] = []
        for offset in [0, 3, 7] {
            for first in 0...255 {
                failures += [disagreement([UInt8(first)], offset: offset, trailer: 0x80)].compactMap { $0 }
                for second in 0...255 {
                    let bytes = [UInt8(first), UInt8(second)]
                    failures += [disagreement(bytes, offset: offset, trailer: 0xBF)].compactMap { $0 }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) disagreements: \(failures.prefix(8))")
    }

    /// Byte values on the edges of the table of well-formed sequences.
    private static let edges: [UInt8] = [0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xF4, 0xFF]
    private static let fewEdges: [UInt8] = [0x7F, 0x80, 0xBF, 0xC0]

    @Test("every three- and four-byte lead with every second byte and edge bytes after it")
    func everyLongLead() {
        var failures: [String] = []
        for lead in 0xE0...0xFF {
            for second in 0...255 {
                for third in lead < 0xF0 ? Self.edges : Self.fewEdges {
                    let bytes = [UInt8(lead), UInt8(second), third]
                    failures += [
                        disagreement(bytes, offset: 1, trailer: 0x80),
                        disagreement(bytes + [0x41], offset: 5, trailer: 0x80),
                    ].compactMap { $0 }
                    for fourth in Self.fewEdges where lead >= 0xF0 {
                        // Whole, and cut short by the end of the string with the missing byte after it.
                        failures += [
                            disagreement(bytes + [fourth], offset: 2, trailer: 0xFF),
                            disagreement(bytes, offset: 4, trailer: fourth),
                        ].compactMap { $0 }
                    }
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) disagreements: \(failures.prefix(8))")
    }

    @Test("random text of valid scalars and stray bytes, up to 80 bytes, at every offset in a word")
    func randomText() {
        var random = SplitMix64(state: 0x0075_7466_3800)
        let scalars: [UInt32] = [
            0x41, 0x7A, 0x7F, 0xE9, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0xFFFF, 0x1_0000, 0x1_F600, 0x10_FFFF,
        ]
        var failures: [String] = []
        var refused = 0
        for round in 0..<20_000 {
            var bytes: [UInt8] = []
            let length = Int.random(in: 0...80, using: &random)
            while bytes.count < length {
                switch Int.random(in: 0..<20, using: &random) {
                case 0..<10:
                    bytes += Array("words ".utf8.prefix(Int.random(in: 1...6, using: &random)))
                case 10..<19:
                    let scalar = Unicode.Scalar(scalars.randomElement(using: &random)!)!
                    bytes += Array(String(Character(scalar)).utf8)
                default:
                    // A stray byte: a lone continuation, a lead without its tail, a byte never used.
                    bytes.append(UInt8.random(in: 0x80...0xFF, using: &random))
                }
            }
            if reference(bytes) == nil { refused += 1 }
            failures += [disagreement(bytes, offset: round % 8, trailer: round % 3 == 0 ? 0x00 : 0xA0)].compactMap {
                $0
            }
        }
        #expect(failures.isEmpty, "\(failures.count) disagreements: \(failures.prefix(8))")
        // Both kinds were tried, in numbers.
        #expect(refused > 2_000 && refused < 18_000)
    }

    @Test(
        "strings of every width round-trip through the decoder, and a damaged one is rejected exactly when it is ill-formed"
    )
    func throughTheDecoder() throws {
        var random = SplitMix64(state: 0xDEC0DE)
        let pieces = ["a", "Zürich ", "naïve ", "straße ", "東京 ", "🙂", "plain ascii words "]
        var strings: [String] = []
        for length in 0..<90 {
            var text = ""
            while text.utf8.count < length { text += pieces.randomElement(using: &random)! }
            strings.append(text)
        }
        let data = try ArchiveEncoder().encode(strings)
        #expect(try ArchiveDecoder().decode([String].self, from: data) == strings)

        // Damage one byte of one string's UTF-8 at a time; the decoder must refuse exactly the
        // archives whose string the standard library refuses, and decode the others to it.
        let target = strings[77]
        let utf8 = Array(target.utf8)
        let at = try #require(data.firstRange(of: Data(utf8))).lowerBound
        for position in 0..<utf8.count {
            for replacement: UInt8 in [0x41, 0x80, 0xBF, 0xC0, 0xE0, 0xED, 0xF0, 0xF4, 0xF5, 0xFF] {
                var damaged = data
                damaged[at + position] = replacement
                var expectedBytes = utf8
                expectedBytes[position] = replacement
                let expected = reference(expectedBytes)
                let decoded = try? ArchiveDecoder().decode([String].self, from: damaged)
                if let expected {
                    #expect(decoded?[77] == expected)
                } else {
                    let error = #expect(throws: DecodingError.self) {
                        try ArchiveDecoder().decode([String].self, from: damaged)
                    }
                    #expect(error.map(archiveCode(of:)) == .invalidUTF8)
                }
            }
        }
    }
}
