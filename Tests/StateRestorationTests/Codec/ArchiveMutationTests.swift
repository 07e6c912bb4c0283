import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveMutationTests {
    @Test("thousands of randomly mutated archives either decode or throw, never trap")
    func mutatedArchivesNeverTrap() throws {
        let original = try ArchiveEncoder().encode(ScreenState.sample(seed: 3, depth: 1))
        var generator = SplitMix64(state: 0x5EED)
        var decoded = 0
        var threw = 0
        for _ in 0..<3000 {
            var bytes = Array(original)
            switch generator.next() % 4 {
            case 0:
                // Overwrite a few bytes (past the magic most of the time).
                for _ in 0...(generator.next() % 4) {
                    bytes[Int(generator.next() % UInt64(bytes.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
            case 1:
                // Flip one bit.
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] ^= 1 << UInt8(generator.next() % 8)
            case 2:
                // Delete a run of bytes.
                let start = Int(generator.next() % UInt64(bytes.count))
                let length = min(Int(generator.next() % 8) + 1, bytes.count - start)
                bytes.removeSubrange(start..<(start + length))
            default:
                // Insert random bytes.
                let start = Int(generator.next() % UInt64(bytes.count))
                let insert = (0...(generator.next() % 6)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                bytes.insert(contentsOf: insert, at: start)
            }
            let data = Data(bytes)
            do {
                _ = try ArchiveDecoder().decode(ScreenState.self, from: data)
                decoded += 1
            } catch {
                threw += 1
                #expect(error is DecodingError, "\(error)")
            }
            if let value = try? ArchiveValue(decoding: data) {
                _ = value.jsonString(prettyPrinted: false)
            }
        }
        #expect(decoded + threw == 3000)
        #expect(threw > 0)
    }
}
