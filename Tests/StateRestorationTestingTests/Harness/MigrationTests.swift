import StateRestoration
import StateRestorationTesting
import TestScreens
import Testing

/// The product screen as build 1.0 shipped it: a numeric identifier.
private struct ProductV1: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable {
        var productID: Int
        var giftWrap: Bool
    }
    var state: State
}

/// Build 2.0: a string identifier and options, migrated from version 1.
private struct ProductV2: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 2
    struct StateV1: Decodable {
        var productID: Int
        var giftWrap: Bool
    }
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var options: [String]
    }
    static let stateMigrations = [
        StateMigration<State>(from: 1, StateV1.self) { old in
            guard old.productID >= 0 else { throw Refused() }
            return State(productID: "p-\(old.productID)", options: old.giftWrap ? ["gift-wrap"] : [])
        }
    ]
    var state: State
}

/// Build 3.0: a quantity, migrated from version 2 by a step of its own; version 1
/// goes through the step build 2.0 wrote, now to version 2's State.
private struct ProductV3: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 3
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var options: [String]
        var quantity: Int
    }
    static let stateMigrations: [StateMigration<State>] = [
        StateMigration(from: 1, ProductV2.StateV1.self, to: ProductV2.State.self) { old in
            ProductV2.State(productID: "p-\(old.productID)", options: old.giftWrap ? ["gift-wrap"] : [])
        },
        StateMigration(from: 2, ProductV2.State.self) { old in
            State(productID: old.productID, options: old.options, quantity: 1)
        },
    ]
    var state: State
}

private struct Refused: Error, CustomStringConvertible {
    var description: String { "negative identifiers are gone" }
}

private func declaration<P: RestorableScreen>(_ product: P.Type) -> ScreenDeclaration {
    ScreenDeclaration {
        Stack("browse", root: SearchScreen()) { Screen(P.self, id: "product") }
    }
}

@Suite struct MigrationTests {
    @Test("an archive saved by the older build is migrated by the harness's declaration")
    func migrates() async throws {
        var old = try declaration(ProductV1.self).makeInitialTree()
        try old.push(ProductV1(state: .init(productID: 42, giftWrap: true)), onto: "browse")
        try old.push(ProductV1(state: .init(productID: -1, giftWrap: false)), onto: "browse")
        let harness = RestorationHarness(screens: declaration(ProductV2.self))
        let relaunched = try await harness.relaunch(
            savingWith: declaration(ProductV1.self), tree: old,
            configuration: RestorationConfiguration(appVersion: "1.0"))
        #expect(relaunched.report.archiveInfo?.appVersion == "1.0")
        #expect(relaunched.report.migrated == [.init(path: "browse/product#1", fromVersion: 1, toVersion: 2)])
        #expect(
            relaunched.tree.screen(ProductV2.self, at: "product#1")?.state
                == .init(productID: "p-42", options: ["gift-wrap"]))
        #expect(relaunched.report.skipped.map(\.reason) == [.migrationFailed])
        #expect(relaunched.report.skipped.first?.message.contains("negative identifiers are gone") == true)
        #expect(relaunched.tree.node(at: "browse")?.children.count == 2)
    }

    @Test("without a migration the old state is skipped as a version mismatch, so the helper really saved version 1")
    func savedWithTheOldVersion() async throws {
        struct ProductV2WithoutMigration: RestorableScreen {
            static let typeKey: ScreenTypeKey = "product"
            static let stateVersion = 2
            struct State: Codable, Sendable, Equatable { var productID: Int; var giftWrap: Bool }
            var state: State
        }
        var old = try declaration(ProductV1.self).makeInitialTree()
        try old.push(ProductV1(state: .init(productID: 7, giftWrap: false)), onto: "browse")
        let relaunched = try await RestorationHarness(screens: declaration(ProductV2WithoutMigration.self))
            .relaunch(savingWith: declaration(ProductV1.self), tree: old)
        #expect(relaunched.report.skipped.map(\.reason) == [.stateVersionMismatch])
        #expect(relaunched.report.migrated.isEmpty)
    }

    @Test("an archive saved two builds back is migrated through the chain, and reported from version 1 to 3")
    func migratesThroughAChain() async throws {
        var old = try declaration(ProductV1.self).makeInitialTree()
        try old.push(ProductV1(state: .init(productID: 42, giftWrap: true)), onto: "browse")
        let relaunched = try await RestorationHarness(screens: declaration(ProductV3.self))
            .relaunch(savingWith: declaration(ProductV1.self), tree: old)
        #expect(relaunched.report.skipped.isEmpty)
        #expect(relaunched.report.migrated == [.init(path: "browse/product#1", fromVersion: 1, toVersion: 3)])
        #expect(
            relaunched.tree.screen(ProductV3.self, at: "product#1")?.state
                == .init(productID: "p-42", options: ["gift-wrap"], quantity: 1))
    }
}
