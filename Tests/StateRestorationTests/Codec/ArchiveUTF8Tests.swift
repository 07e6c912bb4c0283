import Foundation
import StateRestoration
import Testing

/// Strings read from an archive are valid UTF-8: the decoder accepts exactly what the
/// standard library's validation accepts, and refuses the rest as `invalidUTF8`.
@Suite struct ArchiveUTF8Tests {
    /// What the standard library says of `bytes`: nil if ill-formed, else the string.
    private func reference(_ bytes: [UInt8]) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// Decodes `bytes` as the one string of an archive: nil if the decoder refuses it for
    /// invalid UTF-8 (any other failure is recorded).
    private func decoded(_ bytes: [UInt8]) -> String? {
        let data = Bytes.archive(root: [Bytes.string] + Bytes.varint(UInt64(bytes.count)) + bytes)
        do {
            let string = try ArchiveDecoder().decode(String.self, from: data)
            #expect(try ArchiveValue(decoding: data) == .string(string))
            return string
        } catch {
            #expect(archiveCode(of: error) == .invalidUTF8, "\(bytes): \(error)")
            #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: data) }
            return nil
        }
    }

    @Test("every one- and two-byte sequence is accepted exactly when the standard library accepts it")
    func everyShortSequence() {
        var failures: [String] = []
        for first in 0...255 {
            for bytes in [[UInt8(first)]] + (0...255).map({ [UInt8(first), UInt8($0)] }) {
                let expected = reference(bytes)
                let made = decoded(bytes)
                if made != expected || made?.unicodeScalars.count != expected?.unicodeScalars.count {
                    failures.append("\(bytes): \(made.debugDescription), expected \(expected.debugDescription)")
                }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) disagreements: \(failures.prefix(8))")
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
