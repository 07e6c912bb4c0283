@testable import StateRestoration
import Testing

/// The path component a stack gives each child, `base#position`, which a save makes for every
/// screen on a stack and so builds without string interpolation when it can.
@Suite struct PositionalIdentifierTests {
    @Test("the component is base#position for every length and position, and parses back")
    func componentsMatchInterpolation() {
        let bases = [
            "", "a", "product", "fourteen-bytes", "fifteen-bytes-x", "a-much-longer-identifier", "café", "日本", "🙂",
        ]
        let positions = [0, 1, 9, 10, 11, 99, 100, 12_345, 1_000_000_007, Int.max]
        for base in bases {
            for position in positions {
                let component = PositionalIdentifier(base: base, position: position).component
                // Byte for byte: `==` on strings would accept a canonically equivalent spelling.
                #expect(Array(component.utf8) == Array("\(base)#\(position)".utf8), "\(base) \(position)")
                #expect(PositionalIdentifier(component) == PositionalIdentifier(base: base, position: position))
            }
        }
        #expect(PositionalIdentifier(base: "x", position: -3).component == "x#-3")
    }
}
