import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveNamingTests {
    @Test(
        "Timestamps are UTC yyyyMMdd'T'HHmmss.SSS'Z'",
        arguments: [
            (0.0, "19700101T000000.000Z"),
            (1_700_000_000.25, "20231114T221320.250Z"),
            (951_825_600.5, "20000229T120000.500Z"),  // a leap day
            (-0.75, "19691231T235959.250Z"),  // before the epoch
            (4_102_444_799.0, "20991231T235959.000Z"),
        ])
    func timestamps(seconds: Double, expected: String) {
        #expect(ArchiveNaming.timestamp(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test(
        "Reasons become short lower-case slugs",
        arguments: [
            ("checksum-mismatch", "checksum-mismatch"),
            ("Checksum mismatch!", "checksum-mismatch"),
            ("  --Bad   magic//v2 ", "bad-magic-v2"),
            ("", "unspecified"),
            ("日本", "unspecified"),
            (String(repeating: "ab-", count: 30), String(repeating: "ab-", count: 13) + "a"),  // cut at 40
        ])
    func slugs(reason: String, expected: String) {
        let slug = ArchiveNaming.slug(for: reason)
        #expect(slug == expected)
        #expect(slug.count <= ArchiveNaming.maximumSlugLength)
    }

    @Test("Names of archives, rejected copies and temporary files are told apart")
    func classification() {
        let key: StoreKey = "scene.1"
        #expect(ArchiveNaming.classify(ArchiveNaming.archiveName(for: key)) == .archive(key))
        let rejected = ArchiveNaming.rejectedName(
            for: key, slug: "bad-magic", timestamp: "20261122T101038.250Z", sequence: 1)
        #expect(rejected == "scene.1.rejected-bad-magic-20261122T101038.250Z.restoration")
        #expect(
            ArchiveNaming.classify(rejected)
                == .rejected(key, order: .init(timestamp: "20261122T101038.250Z", sequence: 1)))
        let second = ArchiveNaming.rejectedName(
            for: key, slug: "bad-magic", timestamp: "20261122T101038.250Z", sequence: 2)
        #expect(second == "scene.1.rejected-bad-magic-20261122T101038.250Z-2.restoration")
        #expect(
            ArchiveNaming.classify(second)
                == .rejected(key, order: .init(timestamp: "20261122T101038.250Z", sequence: 2)))
        let temporary = ArchiveNaming.temporaryName(for: key, processID: 4242, token: 0xBEEF)
        #expect(temporary == ".scene.1.restoration.4242.000000000000beef.tmp")
        #expect(ArchiveNaming.classify(temporary) == .temporary(processID: 4242))
        for other in [
            "notes.txt", ".hidden.restoration", "bad key.restoration", ".x.tmp", ".main.restoration.0.00.tmp",
        ] {
            #expect(ArchiveNaming.classify(other) == .other, "\(other)")
        }
    }

    @Test("Rejected copies order by timestamp, then sequence")
    func rejectedOrder() {
        let names = [
            "main.rejected-z-20260101T000000.001Z.restoration",
            "main.rejected-a-20260101T000000.001Z-2.restoration",
            "main.rejected-m-20251231T235959.999Z.restoration",
        ]
        let orders = names.compactMap { name -> ArchiveNaming.RejectedOrder? in
            guard case .rejected(_, let order) = ArchiveNaming.classify(name) else { return nil }
            return order
        }
        #expect(orders.count == 3)
        #expect(orders[2] < orders[0])
        #expect(orders[0] < orders[1])
    }
}
