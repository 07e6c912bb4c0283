import Foundation
import StateRestoration
import StateRestorationTesting
import TestScreens
import Testing

/// Version 1 of the product screen, as an older build shipped it; SchemaMigrationChainTests
/// saves it too.
struct ProductV1: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable {
        var productID: Int
        var giftWrap: Bool
    }
    var state: State
}

/// Version 2: the identifier became a string, gift wrap became an option, and
/// a quantity appeared; SchemaMigrationChainTests saves it too.
struct ProductV2: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 2
    struct StateV1: Decodable {
        var productID: Int
        var giftWrap: Bool
    }
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var quantity: Int
        var options: [String]
    }
    static let stateMigrations = [
        StateMigration<State>(from: 1, StateV1.self) { v1 in
            guard v1.productID >= 0 else { throw MigrationRefused() }
            return State(productID: "p-\(v1.productID)", quantity: 1, options: v1.giftWrap ? ["gift-wrap"] : [])
        }
    ]
    var state: State
}

private struct MigrationRefused: Error, CustomStringConvertible {
    var description: String { "negative product identifiers are gone" }
}

/// Version 1 with an optional field added: no version bump needed.
private struct ProductV1WithNote: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable {
        var productID: Int
        var giftWrap: Bool
        var note: String?
    }
    var state: State
}

/// Version 1 with a field removed: the saved value is ignored.
private struct ProductV1WithoutGiftWrap: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable { var productID: Int }
    var state: State
}

@Suite struct SchemaMigrationTests {
    private static func declaration<P: RestorableScreen>(_ product: P.Type) -> ScreenDeclaration {
        ScreenDeclaration {
            Stack("browse", root: SearchScreen()) { Screen(P.self, id: "product") }
        }
    }

    /// Saves the given version-1 products and launches with another build's declaration.
    private func relaunch<P: RestorableScreen>(
        savedProducts: [ProductV1.State], restoringWith product: P.Type,
        configuration: RestorationConfiguration = RestorationConfiguration()
    ) async throws -> RestorationSession {
        var tree = try Self.declaration(ProductV1.self).makeInitialTree()
        for state in savedProducts { try tree.push(ProductV1(state: state), onto: "browse") }
        return try await RestorationHarness(screens: Self.declaration(P.self), configuration: configuration)
            .relaunch(savingWith: Self.declaration(ProductV1.self), tree: tree).session
    }

    @Test("an older State version is migrated with ordinary Swift, and the report says so")
    func migration() async throws {
        let session = try await relaunch(
            savedProducts: [.init(productID: 42, giftWrap: true), .init(productID: 7, giftWrap: false)],
            restoringWith: ProductV2.self)
        #expect(session.report.skipped.isEmpty)
        #expect(
            session.tree.screen(ProductV2.self, at: "product#1")?.state
                == .init(productID: "p-42", quantity: 1, options: ["gift-wrap"]))
        #expect(
            session.tree.screen(ProductV2.self, at: "product#2")?.state
                == .init(productID: "p-7", quantity: 1, options: []))
        #expect(
            session.report.migrated.map(\.description) == [
                "browse/product#1 migrated from State version 1 to 2",
                "browse/product#2 migrated from State version 1 to 2",
            ])
    }

    @Test("a migration that throws skips that screen only, with the reason")
    func failedMigration() async throws {
        let session = try await relaunch(
            savedProducts: [.init(productID: 1, giftWrap: false), .init(productID: -1, giftWrap: false)],
            restoringWith: ProductV2.self)
        #expect(session.report.skipped.map(\.reason) == [.migrationFailed])
        #expect(session.report.skipped.first?.message.contains("negative product identifiers are gone") == true)
        #expect(session.tree.node(at: "browse")?.children.count == 2)
    }

    @Test("an added optional field needs no migration; a removed field is ignored")
    func compatibleChanges() async throws {
        let added = try await relaunch(
            savedProducts: [.init(productID: 3, giftWrap: true)], restoringWith: ProductV1WithNote.self)
        #expect(
            added.tree.screen(ProductV1WithNote.self, at: "product#1")?.state
                == .init(productID: 3, giftWrap: true, note: nil))
        let removed = try await relaunch(
            savedProducts: [.init(productID: 3, giftWrap: true)], restoringWith: ProductV1WithoutGiftWrap.self)
        #expect(removed.tree.screen(ProductV1WithoutGiftWrap.self, at: "product#1")?.state == .init(productID: 3))
        #expect(added.report.migrated.isEmpty && removed.report.migrated.isEmpty)
    }

    @Test("a state saved by a newer build is skipped with a diagnostic, not misread")
    func newerVersion() async throws {
        let newer = Self.declaration(ProductV2.self)
        var tree = try newer.makeInitialTree()
        try tree.push(ProductV2(state: .init(productID: "p-1", quantity: 2, options: [])), onto: "browse")
        let session = try await RestorationHarness(screens: Self.declaration(ProductV1.self))
            .relaunch(savingWith: newer, tree: tree)
        let skipped = try #require(session.report.skipped.first)
        #expect(skipped.reason == .stateVersionMismatch)
        #expect(skipped.message.contains("saved by a newer build"))
    }

    @Test("should-restore still sees the saved app version, and can refuse")
    func appVersionStillDecides() async throws {
        struct OnlySameVersion: RestorationDelegate {
            func shouldRestore(_ archive: ArchiveInfo) async -> Bool { archive.appVersion == "2.0" }
        }
        let old = Self.declaration(ProductV1.self)
        let harness = RestorationHarness(
            screens: Self.declaration(ProductV2.self), configuration: RestorationConfiguration(appVersion: "2.0")
        ) { OnlySameVersion() }
        let session = try await harness.relaunch(
            savingWith: old, tree: try old.makeInitialTree(), configuration: RestorationConfiguration(appVersion: "1.0")
        )
        #expect(session.report.freshReason?.code == .declinedByDelegate)
        #expect(session.report.archiveInfo?.appVersion == "1.0")
    }
}
