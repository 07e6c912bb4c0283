import Foundation
import StateRestoration
import StateRestorationTesting
import Testing

@Suite struct ArchiveDamageTests {
    static let damages: [ArchiveDamage] = [
        .flippedBodyByte(at: 0), .flippedBodyByte(at: 57), .truncated(toByteCount: 0), .truncated(toByteCount: 10),
        .truncated(toByteCount: 40), .replacedMagic(),
    ]

    @Test(
        "a damaged archive is a fresh launch naming the damage's check; the damaged bytes are kept aside",
        arguments: damages)
    func damagedRelaunch(_ damage: ArchiveDamage) async throws {
        let storage = InMemoryStore.Storage()
        let harness = RestorationHarness(screens: TestApp.declaration, storage: .inMemory(storage))
        let tree = try TestApp.busyTree()
        let intact = try await harness.relaunch(saving: tree)
        #expect(intact.tree == tree)

        let relaunched = try await harness.relaunch(saving: tree, damagedBy: damage)
        #expect(relaunched.report.outcome == .fresh)
        #expect(relaunched.report.freshReason?.code == .archiveRejected)
        #expect(relaunched.rejectedCheck == damage.expectedCheck)
        #expect(relaunched.tree == (try TestApp.declaration.makeInitialTree()))
        #expect(try harness.storedArchive() == nil)
    }

    @Test(
        "step by step: the stored archive is damaged in place, and the launch keeps exactly those bytes aside",
        arguments: damages)
    func damagedInPlace(_ damage: ArchiveDamage) async throws {
        let storage = InMemoryStore.Storage()
        let harness = RestorationHarness(screens: TestApp.declaration, storage: .inMemory(storage))
        try await harness.save(try TestApp.busyTree())
        let intact = try #require(try harness.storedArchive())
        let damaged = try harness.damageArchive(damage)
        #expect(damaged == (try damage.apply(to: intact)))
        #expect(damaged != intact)
        #expect(try harness.storedArchive() == damaged)

        let relaunched = try await harness.launch()
        #expect(relaunched.rejectedCheck == damage.expectedCheck)
        let rejectedName = try #require(relaunched.report.rejectedArchive)
        #expect(InMemoryStore(storage: storage).rejectedArchive(named: rejectedName) == damaged)
    }

    @Test("damaging a save that the delegate declined throws, instead of damaging an earlier archive")
    func declinedSaveIsNotDamaged() async throws {
        struct Declining: RestorationDelegate {
            func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool { false }
        }
        let storage = InMemoryStore.Storage()
        let tree = try TestApp.busyTree()
        _ = try await RestorationHarness(screens: TestApp.declaration, storage: .inMemory(storage)).relaunch(
            saving: tree)
        let earlier = try #require(
            try RestorationHarness(screens: TestApp.declaration, storage: .inMemory(storage)).storedArchive())

        let declining = RestorationHarness(screens: TestApp.declaration, storage: .inMemory(storage)) { Declining() }
        let error = await #expect(throws: HarnessError.self) {
            try await declining.relaunch(saving: tree, damagedBy: .flippedBodyByte(at: 0))
        }
        #expect(error?.description.contains("nothing was saved") == true)
        #expect(try declining.storedArchive() == earlier)
    }

    @Test("flipping a body byte changes exactly that byte")
    func flip() throws {
        let archive = Data(repeating: 0x11, count: ArchiveDamage.headerSize + 8)
        let damaged = try ArchiveDamage.flippedBodyByte(at: 2).apply(to: archive)
        let changed = zip(archive, damaged).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(changed == [ArchiveDamage.headerSize + 2])
        #expect(damaged[ArchiveDamage.headerSize + 2] == 0xEE)
    }

    @Test("truncating keeps the first bytes; replacing the magic keeps the rest")
    func truncateAndMagic() throws {
        let archive = Data((0..<100).map { UInt8($0) })
        #expect(try ArchiveDamage.truncated(toByteCount: 30).apply(to: archive) == archive.prefix(30))
        let magic: [UInt8] = Array("GIF89a!!".utf8)
        let replaced = try ArchiveDamage.replacedMagic(with: magic).apply(to: archive)
        #expect(Array(replaced.prefix(8)) == magic)
        #expect(replaced.dropFirst(8) == archive.dropFirst(8))
    }

    @Test("damage that does not fit, or nothing saved, is a harness error, not a silent no-op")
    func misuse() async throws {
        let harness = RestorationHarness(screens: TestApp.declaration)
        #expect(throws: HarnessError.self) { try harness.damageArchive(.truncated(toByteCount: 10)) }
        try await harness.save(try TestApp.busyTree())
        let size = try #require(try harness.storedArchive()).count
        #expect(throws: HarnessError.self) { try harness.damageArchive(.flippedBodyByte(at: size)) }
        #expect(throws: HarnessError.self) { try harness.damageArchive(.truncated(toByteCount: size)) }
        #expect(try harness.storedArchive()?.count == size)
    }
}
