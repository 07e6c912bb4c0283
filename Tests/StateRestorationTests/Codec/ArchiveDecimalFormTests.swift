import Foundation
import Testing

@testable import StateRestoration

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
                return (ArchiveFormat.zigzag(mantissa), UInt8(scale))
            }
        }
        return nil
    }

    @Test("the one-division decimal form below 219,902 is the form the scale-by-scale definition gives")
    func fastPathMatchesDefinition() {
        var generator = SplitMix64(state: 2026)
        var samples: [Double] = [
            0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, .ulpOfOne, 0.1, 0.3, 1.0 / 3,
            219_901.999_999_9, 219_902, -219_901.5, 219_902.000_000_1, 1e-7, 5e-8, 1.5e-7, 123_456.789_012_3,
        ]
        for _ in 0..<20_000 {
            let scale = Int(generator.next() % 8)
            let power = (0..<scale).reduce(1.0) { result, _ in result * 10 }
            // Decimals at every scale, most of them inside the fast path, some just outside.
            let mantissa = Int64(bitPattern: generator.next()) % Int64(250_000 * power)
            samples.append(Double(mantissa) / power)
            samples.append(Double(bitPattern: generator.next()))
            samples.append(Double(bitPattern: generator.next() >> 2))  // mostly tiny magnitudes
        }
        var mismatches = 0
        for value in samples {
            let fast = ArchiveFormat.decimalForm(value)
            let slow = reference(value)
            if fast?.0 != slow?.0 || fast?.1 != slow?.1 {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record("\(value): \(String(describing: fast)) vs \(String(describing: slow))")
                }
            }
        }
        #expect(mismatches == 0)
        // Most samples do have a decimal form: the comparison covers the shortening, not just rejection.
        #expect(samples.count(where: { reference($0) != nil }) > 15_000)
    }
}
