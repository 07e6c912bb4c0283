import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveRoundTripTests {
    @Test("a realistic nested model with every supported type survives a round trip")
    func realisticModel() throws {
        let value = ScreenState.sample(seed: 4, depth: 3)
        let data = try ArchiveEncoder().encode(value)
        let decoded = try ArchiveDecoder().decode(ScreenState.self, from: data)
        #expect(decoded == value)
    }

    @Test("every route case (enums with associated values) round trips", arguments: 0..<5)
    func routes(seed: Int) throws {
        let value = ScreenState.sample(seed: seed, depth: 1)
        let decoded = try ArchiveDecoder().decode(ScreenState.self, from: ArchiveEncoder().encode(value))
        #expect(decoded == value)
        #expect(decoded.route == value.route)
    }
}
