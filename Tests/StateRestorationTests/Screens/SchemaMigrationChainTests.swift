import StateRestoration
import StateRestorationTesting
import TestScreens
import Testing

// Versions 1 and 2 of the product screen are SchemaMigrationTests' ProductV1 and ProductV2.

/// Version 3: a note appeared. The step from version 1 is the one version 2
/// wrote, now making version 2's State; one new step goes from version 2.
private struct ProductV3: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 3
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var quantity: Int
        var options: [String]
        var note: String
    }
    static let stepFromOne = StateMigration<State>(from: 1, ProductV2.StateV1.self, to: ProductV2.State.self) { v1 in
        ProductV2.State(productID: "p-\(v1.productID)", quantity: 1, options: v1.giftWrap ? ["gift-wrap"] : [])
    }
    static let stateMigrations: [StateMigration<State>] = [
        stepFromOne,
        StateMigration(from: 2, ProductV2.State.self) { v2 in
            guard v2.productID != "p-13" else { throw Recalled(productID: v2.productID) }
            return State(productID: v2.productID, quantity: v2.quantity, options: v2.options, note: "")
        },
    ]
    var state: State
}

private struct Recalled: Error, CustomStringConvertible {
    var productID: String
    var description: String { "product \(productID) was recalled" }
}

/// Other version 3 builds, which differ from ``ProductV3`` only in their migrations.
private protocol ProductV3Migrations {
    static var migrations: [StateMigration<ProductV3.State>] { get }
}

private struct ProductV3Build<Migrations: ProductV3Migrations>: RestorableScreen {
    static var typeKey: ScreenTypeKey { "product" }
    static var stateVersion: Int { 3 }
    static var stateMigrations: [StateMigration<ProductV3.State>] { Migrations.migrations }
    var state: ProductV3.State
}

/// Written the old way: each older version migrates straight to the current State.
private enum Direct: ProductV3Migrations {
    static let migrations = [
        StateMigration<ProductV3.State>(from: 1, ProductV2.StateV1.self) { v1 in
            .init(productID: "p-\(v1.productID)", quantity: 1, options: v1.giftWrap ? ["gift-wrap"] : [], note: "")
        },
        StateMigration<ProductV3.State>(from: 2, ProductV2.State.self) { v2 in
            .init(productID: v2.productID, quantity: v2.quantity, options: v2.options, note: "")
        },
    ]
}

/// The version 2 shape written a second time, by mistake.
private struct OtherStateV2: Decodable {
    var productID: String
    var quantity: Int
    var options: [String]
}

/// The step from 2 reads another type than the step from 1 makes.
private enum Mismatched: ProductV3Migrations {
    static let migrations: [StateMigration<ProductV3.State>] = [
        ProductV3.stepFromOne,
        StateMigration(from: 2, OtherStateV2.self) { v2 in
            .init(productID: v2.productID, quantity: v2.quantity, options: v2.options, note: "")
        },
    ]
}

/// The step from 2 is missing.
private enum MissingStep: ProductV3Migrations {
    static let migrations = [ProductV3.stepFromOne]
}

/// The last step makes a draft instead of the current State.
private enum WrongEnd: ProductV3Migrations {
    struct Draft: Decodable { var productID: String }
    static let migrations: [StateMigration<ProductV3.State>] = [
        ProductV3.stepFromOne,
        StateMigration(from: 2, ProductV2.State.self, to: Draft.self) { v2 in Draft(productID: v2.productID) },
    ]
}

/// A stack of products of one build.
private func declaration<P: RestorableScreen>(_ product: P.Type) -> ScreenDeclaration {
    ScreenDeclaration {
        Stack("browse", root: SearchScreen()) { Screen(P.self, id: "product") }
    }
}

@Suite struct SchemaMigrationChainTests {
    /// Saves the given products with the build of `Saved` and launches with the build of `Restoring`.
    private func relaunch<Saved: RestorableScreen, Restoring: RestorableScreen>(
        saving products: [Saved], restoringWith restoring: Restoring.Type
    ) async throws -> RestorationSession {
        var tree = try declaration(Saved.self).makeInitialTree()
        for product in products { try tree.push(product, onto: "browse") }
        return try await RestorationHarness(screens: declaration(Restoring.self))
            .relaunch(savingWith: declaration(Saved.self), tree: tree).session
    }

    @Test("a state saved at version 1 runs 1 → 2 and then 2 → 3, and the report says 1 to 3")
    func versionOneThroughTwo() async throws {
        let session = try await relaunch(
            saving: [ProductV1(state: .init(productID: 42, giftWrap: true))], restoringWith: ProductV3.self)
        #expect(session.report.skipped.isEmpty)
        // "p-", the quantity and the option come from step 1 → 2, the note from step 2 → 3.
        #expect(
            session.tree.screen(ProductV3.self, at: "product#1")?.state
                == .init(productID: "p-42", quantity: 1, options: ["gift-wrap"], note: ""))
        #expect(session.report.migrated == [.init(path: "browse/product#1", fromVersion: 1, toVersion: 3)])
        #expect(session.report.migrated.map(\.description) == ["browse/product#1 migrated from State version 1 to 3"])
    }

    @Test("a state saved at version 2 runs only 2 → 3")
    func versionTwo() async throws {
        let session = try await relaunch(
            saving: [ProductV2(state: .init(productID: "sku-9", quantity: 2, options: ["engraving"]))],
            restoringWith: ProductV3.self)
        #expect(session.report.skipped.isEmpty)
        #expect(
            session.tree.screen(ProductV3.self, at: "product#1")?.state
                == .init(productID: "sku-9", quantity: 2, options: ["engraving"], note: ""))
        #expect(session.report.migrated == [.init(path: "browse/product#1", fromVersion: 2, toVersion: 3)])
    }

    @Test("a step that throws in the middle of a chain skips that screen only, naming the step")
    func stepThrows() async throws {
        let session = try await relaunch(
            saving: [
                ProductV1(state: .init(productID: 1, giftWrap: false)),
                ProductV1(state: .init(productID: 13, giftWrap: false)),
            ],
            restoringWith: ProductV3.self)
        let skipped = try #require(session.report.skipped.first)
        #expect(session.report.skipped.count == 1)
        #expect(skipped.reason == .migrationFailed)
        #expect(skipped.path == "browse/product#2")
        #expect(
            skipped.message
                == "product State version 1 did not migrate to version 3: step 2 → 3 failed: product p-13 was recalled")
        #expect(session.report.migrated.map(\.path) == ["browse/product#1"])
    }

    /// A build whose chain is broken, and the message its skip must carry.
    struct BrokenBuild: Sendable, CustomTestStringConvertible {
        var screens: ScreenDeclaration
        var name: String
        var message: String
        var testDescription: String { name }
    }

    @Test(
        "a broken chain skips the screen as a version mismatch, with one line naming the versions and the step",
        arguments: [
            BrokenBuild(
                screens: declaration(ProductV3Build<Mismatched>.self), name: "mismatched",
                message: "product State version 1 cannot migrate to version 3: step 2 → 3 reads OtherStateV2, "
                    + "but step 1 → 2 makes ProductV2.State"),
            BrokenBuild(
                screens: declaration(ProductV3Build<MissingStep>.self), name: "missing step",
                message:
                    "product State version 1 cannot migrate to version 3: no migration from version 2 follows step 1 → 2"
            ),
            BrokenBuild(
                screens: declaration(ProductV3Build<WrongEnd>.self), name: "wrong end",
                message:
                    "product State version 1 cannot migrate to version 3: step 2 → 3 makes WrongEnd.Draft, not the current ProductV3.State"
            ),
        ])
    func brokenChain(_ broken: BrokenBuild) async throws {
        var tree = try declaration(ProductV1.self).makeInitialTree()
        try tree.push(ProductV1(state: .init(productID: 5, giftWrap: false)), onto: "browse")
        let session = try await RestorationHarness(screens: broken.screens)
            .relaunch(savingWith: declaration(ProductV1.self), tree: tree).session
        let skipped = try #require(session.report.skipped.first)
        #expect(skipped.reason == .stateVersionMismatch)
        #expect(skipped.message == broken.message)
        #expect(session.report.migrated.isEmpty)
        // The launch went ahead: a broken chain is a warning of the declaration, not an error.
        #expect(broken.screens.errors.isEmpty)
        #expect(broken.screens.warnings.map(\.code) == [.brokenMigrationChain])
    }

    @Test("a broken chain from version 1 still migrates a state saved at version 2 with its own step")
    func brokenChainSparesLaterVersions() async throws {
        let session = try await relaunch(
            saving: [ProductV2(state: .init(productID: "sku-2", quantity: 1, options: []))],
            restoringWith: ProductV3Build<Mismatched>.self)
        #expect(session.report.skipped.isEmpty)
        #expect(session.report.migrated == [.init(path: "browse/product#1", fromVersion: 2, toVersion: 3)])
    }

    @Test("migrations written the old way, each straight to the current State, still migrate from every version")
    func directMigrations() async throws {
        let fromOne = try await relaunch(
            saving: [ProductV1(state: .init(productID: 8, giftWrap: true))], restoringWith: ProductV3Build<Direct>.self)
        #expect(
            fromOne.tree.screen(ProductV3Build<Direct>.self, at: "product#1")?.state
                == .init(productID: "p-8", quantity: 1, options: ["gift-wrap"], note: ""))
        #expect(fromOne.report.migrated == [.init(path: "browse/product#1", fromVersion: 1, toVersion: 3)])
        let fromTwo = try await relaunch(
            saving: [ProductV2(state: .init(productID: "sku-3", quantity: 4, options: []))],
            restoringWith: ProductV3Build<Direct>.self)
        #expect(
            fromTwo.tree.screen(ProductV3Build<Direct>.self, at: "product#1")?.state
                == .init(productID: "sku-3", quantity: 4, options: [], note: ""))
        #expect(fromTwo.report.migrated == [.init(path: "browse/product#1", fromVersion: 2, toVersion: 3)])
        #expect(declaration(ProductV3Build<Direct>.self).diagnostics.isEmpty)
    }
}
