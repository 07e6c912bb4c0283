import StateRestoration
import StateRestorationTesting
import Testing

/// Version 1 of the product screen: a numeric identifier and a gift-wrap flag.
private struct ProductV1: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable {
        var productID: Int
        var giftWrap: Bool
    }
    var state: State
}

/// Version 2: a string identifier, gift wrap as an option.
private struct ProductV2: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 2
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var options: [String]
    }
    var state: State
}

/// The shapes versions 1 and 2 saved, as version 3 keeps them.
private struct StateV1: Decodable {
    var productID: Int
    var giftWrap: Bool
}
private struct StateV2: Decodable {
    var productID: String
    var options: [String]
}
/// The version 2 shape written a second time, by mistake.
private struct OtherStateV2: Decodable {
    var productID: String
    var options: [String]
}

/// Version 3 with a chain: 1 → 2 as written for version 2, then 2 → 3.
private struct ProductV3: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 3
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var options: [String]
        var quantity: Int
    }
    static let stateMigrations: [StateMigration<State>] = [
        StateMigration(from: 1, StateV1.self, to: StateV2.self) { v1 in
            StateV2(productID: "p-\(v1.productID)", options: v1.giftWrap ? ["gift-wrap"] : [])
        },
        StateMigration(from: 2, StateV2.self) { v2 in
            guard v2.productID != "p-13" else { throw Recalled(productID: v2.productID) }
            return State(productID: v2.productID, options: v2.options, quantity: 1)
        },
    ]
    var state: State
}

private struct Recalled: Error, CustomStringConvertible {
    var productID: String
    var description: String { "product \(productID) was recalled" }
}

/// Version 3 written the old way: each older version migrates straight to the current State.
private struct ProductV3Direct: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 3
    typealias State = ProductV3.State
    static let stateMigrations = [
        StateMigration<State>(from: 1, StateV1.self) { v1 in
            State(productID: "p-\(v1.productID)", options: v1.giftWrap ? ["gift-wrap"] : [], quantity: 1)
        },
        StateMigration<State>(from: 2, StateV2.self) { v2 in
            State(productID: v2.productID, options: v2.options, quantity: 1)
        },
    ]
    var state: State
}

/// Version 3 whose step from 2 reads another type than the step from 1 makes.
private struct ProductV3Mismatched: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 3
    typealias State = ProductV3.State
    static let stateMigrations: [StateMigration<State>] = [
        StateMigration(from: 1, StateV1.self, to: StateV2.self) { v1 in
            StateV2(productID: "p-\(v1.productID)", options: [])
        },
        StateMigration(from: 2, OtherStateV2.self) { v2 in
            State(productID: v2.productID, options: v2.options, quantity: 1)
        },
    ]
    var state: State
}

/// Version 3 that forgot the step from 2.
private struct ProductV3MissingStep: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 3
    typealias State = ProductV3.State
    static let stateMigrations: [StateMigration<State>] = [
        StateMigration(from: 1, StateV1.self, to: StateV2.self) { v1 in
            StateV2(productID: "p-\(v1.productID)", options: [])
        }
    ]
    var state: State
}

/// Version 3 whose last step makes a draft of the State instead of the State.
private struct ProductV3WrongEnd: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    static let stateVersion = 3
    typealias State = ProductV3.State
    struct Draft: Decodable { var productID: String }
    static let stateMigrations: [StateMigration<State>] = [
        StateMigration(from: 1, StateV1.self, to: StateV2.self) { v1 in
            StateV2(productID: "p-\(v1.productID)", options: [])
        },
        StateMigration(from: 2, StateV2.self, to: Draft.self) { v2 in Draft(productID: v2.productID) },
    ]
    var state: State
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
        // "p-" and the option come from step 1 → 2, the quantity from step 2 → 3.
        #expect(
            session.tree.screen(ProductV3.self, at: "product#1")?.state
                == .init(productID: "p-42", options: ["gift-wrap"], quantity: 1))
        #expect(session.report.migrated == [.init(path: "browse/product#1", fromVersion: 1, toVersion: 3)])
        #expect(session.report.migrated.map(\.description) == ["browse/product#1 migrated from State version 1 to 3"])
    }

    @Test("a state saved at version 2 runs only 2 → 3")
    func versionTwo() async throws {
        let session = try await relaunch(
            saving: [ProductV2(state: .init(productID: "sku-9", options: ["engraving"]))],
            restoringWith: ProductV3.self)
        #expect(session.report.skipped.isEmpty)
        #expect(
            session.tree.screen(ProductV3.self, at: "product#1")?.state
                == .init(productID: "sku-9", options: ["engraving"], quantity: 1))
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
                screens: declaration(ProductV3Mismatched.self), name: "mismatched",
                message: "product State version 1 cannot migrate to version 3: step 2 → 3 reads OtherStateV2, "
                    + "but step 1 → 2 makes StateV2"),
            BrokenBuild(
                screens: declaration(ProductV3MissingStep.self), name: "missing step",
                message:
                    "product State version 1 cannot migrate to version 3: no migration from version 2 follows step 1 → 2"
            ),
            BrokenBuild(
                screens: declaration(ProductV3WrongEnd.self), name: "wrong end",
                message:
                    "product State version 1 cannot migrate to version 3: step 2 → 3 makes Draft, not the current State"
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
            saving: [ProductV2(state: .init(productID: "sku-2", options: []))],
            restoringWith: ProductV3Mismatched.self)
        #expect(session.report.skipped.isEmpty)
        #expect(session.report.migrated == [.init(path: "browse/product#1", fromVersion: 2, toVersion: 3)])
    }

    @Test("migrations written the old way, each straight to the current State, still migrate from every version")
    func directMigrations() async throws {
        let fromOne = try await relaunch(
            saving: [ProductV1(state: .init(productID: 8, giftWrap: true))], restoringWith: ProductV3Direct.self)
        #expect(
            fromOne.tree.screen(ProductV3Direct.self, at: "product#1")?.state
                == .init(productID: "p-8", options: ["gift-wrap"], quantity: 1))
        #expect(fromOne.report.migrated == [.init(path: "browse/product#1", fromVersion: 1, toVersion: 3)])
        let fromTwo = try await relaunch(
            saving: [ProductV2(state: .init(productID: "sku-3", options: []))], restoringWith: ProductV3Direct.self)
        #expect(
            fromTwo.tree.screen(ProductV3Direct.self, at: "product#1")?.state
                == .init(productID: "sku-3", options: [], quantity: 1))
        #expect(fromTwo.report.migrated == [.init(path: "browse/product#1", fromVersion: 2, toVersion: 3)])
        #expect(declaration(ProductV3Direct.self).diagnostics.isEmpty)
    }
}
