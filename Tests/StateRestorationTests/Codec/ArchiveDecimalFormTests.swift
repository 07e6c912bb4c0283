import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveDecimalFormTests {
    /// The definition in ArchiveFormat.md, tried scale by scale: the smallest k in 0...7
    /// whose mantissa (below 2^41) gives back exactly the same bits.
    private func reference(_ value: Double) -> (UInt64, UInt8)? {
        for scale in 0...7 {
            let power = (0..<scale).reduce(1.0) { result, _ in result * 10 }
            let scaled = value * power
            guard scaled.magnitude < 0x200_0000_0000 else { return nil }
            let mantissa = Int64(scaled < 0 ? scaled - 0.5 : scaled + 0.5)
            let back = scale == 0 ? Double(mantissa) : Double(mantissa) / power
            if back.bitPattern == value.bitPattern {
                return (UInt64(bitPattern: (mantissa << 1) ^ (mantissa >> 63)), UInt8(scale))
            }
        }
        return nil
    }

    /// The root value's bytes the definition gives: a decimal tag and its zigzag mantissa, or
    /// the 8-byte form when there is no decimal form.
    private func expectedRoot(_ value: Double) -> [UInt8] {
        guard let (mantissa, scale) = reference(value) else {
            return [Bytes.float64] + withUnsafeBytes(of: value.bitPattern.littleEndian, Array.init)
        }
        return [Bytes.decimalDouble | scale] + Bytes.varint(mantissa)
    }

    @Test("the encoder writes a double in the decimal form the scale-by-scale definition gives, and reads it back")
    func encodingMatchesDefinition() throws {
        var generator = SplitMix64(state: 2026)
        var samples: [Double] = [
            0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .ulpOfOne, 0.1, 0.3, 1.0 / 3,
            219_901.999_999_9, 219_902, -219_901.5, 219_902.000_000_1, 1e-7, 5e-8, 1.5e-7, 123_456.789_012_3,
        ]
        for _ in 0..<20_000 {
            let scale = Int(generator.next() % 8)
            let power = (0..<scale).reduce(1.0) { result, _ in result * 10 }
            // Decimals at every scale, most of them with a decimal form, some just past its bound.
            let mantissa = Int64(bitPattern: generator.next()) % Int64(250_000 * power)
            samples.append(Double(mantissa) / power)
            samples.append(Double(bitPattern: generator.next()))
            samples.append(Double(bitPattern: generator.next() >> 2))  // mostly tiny magnitudes
        }
        var mismatches = 0
        for value in samples {
            // The root value follows the 4-byte preamble and an empty name table.
            let encoded = try ArchiveEncoder().encode(value)
            let written = Array(encoded.dropFirst(6))
            let expected = expectedRoot(value)
            let decoded = try ArchiveDecoder().decode(Double.self, from: encoded)
            if written != expected || decoded.bitPattern != value.bitPattern {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record("\(value): wrote \(written), expected \(expected), read back \(decoded)")
                }
            }
        }
        #expect(mismatches == 0)
        // Most samples do have a decimal form: the comparison covers the shortening, not just rejection.
        #expect(samples.count(where: { reference($0) != nil }) > 15_000)
    }
}
