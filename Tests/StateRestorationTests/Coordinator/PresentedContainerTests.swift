import Foundation
import StateRestoration
import StateRestorationTesting
import TestScreens
import Testing

/// A cart whose checkout is a navigation stack of its own, presented modally
/// (UIKit: a `UINavigationController` presented over a screen), and whose
/// photo picker is a pair of tabs presented over the payment screen.
private enum Checkout {
    static func declaration() -> ScreenDeclaration {
        ScreenDeclaration {
            Stack("browse", root: SearchScreen()) {
                Screen(ProductScreen.self, id: "product")
                    .presents {
                        Stack("checkout", root: DraftScreen()) {
                            Screen(ReviewScreen.self, id: "review")
                                .presents {
                                    Tabs("picker", selected: "recent") {
                                        Screen(SettingsScreen(), id: "albums")
                                        Screen(ScratchScreen(state: .init(note: "recent")), id: "recent")
                                    }
                                }
                        }
                        Screen(ComposeScreen.self, id: "compose")
                    }
            }
        }
    }

    /// A product with the checkout stack presented over it, one screen pushed onto
    /// that stack, and the picker presented over the pushed screen with its other tab selected.
    static func tree() throws -> ScreenTree {
        var tree = try declaration().makeInitialTree()
        try tree.push(ProductScreen("p-9", quantity: 2), onto: "browse")
        try tree.presentDeclared("checkout", over: "browse/product#1")
        try tree.update(DraftScreen.self, at: "browse/product#1/checkout/draft#0") { $0.state.text = "gift wrap" }
        try tree.push(ReviewScreen(state: .init(productID: "p-9", rating: 5, draft: "fast")), onto: "checkout")
        try tree.presentDeclared("picker", over: "browse/product#1/checkout/review#1")
        try tree.update(SettingsScreen.self, at: "browse/product#1/checkout/review#1/picker/albums") {
            $0.state.region = "camera-roll"
        }
        try tree.selectTab("albums", in: "picker")
        return tree
    }
}

@Suite struct PresentedContainerTests {
    @Test("a presented stack comes back with its pushed screens, and tabs presented over one of them")
    func presentedStackRoundTrip() async throws {
        let tree = try Checkout.tree()
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let session = try await RestorationHarness(screens: Checkout.declaration(), storage: .directory(directory.url))
            .relaunch(saving: tree)

        #expect(session.report.outcome == .restored)
        #expect(session.report.skipped.isEmpty)
        #expect(session.tree == tree)
        #expect(
            session.report.restoredPaths.map(\.description).sorted() == [
                "browse/product#1", "browse/product#1/checkout/draft#0",
                "browse/product#1/checkout/review#1", "browse/product#1/checkout/review#1/picker/albums",
                "browse/product#1/checkout/review#1/picker/recent", "browse/search#0",
            ])
        let checkout = try #require(session.tree.node(at: "browse/product#1/checkout"))
        #expect(checkout.kind == .stack)
        #expect(checkout.children.map(\.identifier) == ["draft", "review"])
        #expect(
            session.tree.screen(DraftScreen.self, at: "browse/product#1/checkout/draft#0")?.state.text == "gift wrap")
        let picker = try #require(session.tree.node(at: "browse/product#1/checkout/review#1/picker"))
        #expect(picker.selectedChild?.identifier == "albums")
        #expect(
            session.tree.screen(SettingsScreen.self, at: "browse/product#1/checkout/review#1/picker/albums")?.state
                .region == "camera-roll")
    }

    @Test("presenting a declared element needs it declared over that node, and nothing presented there yet")
    func presentDeclaredErrors() throws {
        var tree = try Checkout.declaration().makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")

        let undeclared = #expect(throws: HierarchyError.self) {
            try tree.presentDeclared("picker", over: "browse/product#1")
        }
        #expect(undeclared?.code == .notDeclared)
        #expect(undeclared?.message == "browse/product#1 declares no presentable element picker with initial screens")

        // A declared screen type without an initial screen cannot be presented by identifier alone.
        let noInitial = #expect(throws: HierarchyError.self) {
            try tree.presentDeclared("compose", over: "browse/product#1")
        }
        #expect(noInitial?.code == .notDeclared)

        try tree.presentDeclared("checkout", over: "browse/product#1")
        let twice = #expect(throws: HierarchyError.self) {
            try tree.presentDeclared("checkout", over: "browse/product#1")
        }
        #expect(twice?.code == .alreadyPresenting)
        #expect(tree.node(at: "browse/product#1/checkout")?.children.map(\.identifier) == ["draft"])
    }

    @Test("a presented stack that a later build no longer declares is skipped with everything in it")
    func presentedStackNoLongerDeclared() async throws {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: Checkout.declaration(), store: store).save(try Checkout.tree())

        let withoutCheckout = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) {
                Screen(ProductScreen.self, id: "product").presents { Screen(ComposeScreen.self, id: "compose") }
            }
        }
        let session = try await RestorationCoordinator(screens: withoutCheckout, store: store).launch()
        #expect(session.report.outcome == .restored)
        #expect(session.tree.screen(ProductScreen.self, at: "browse/product#1")?.state.quantity == 2)
        #expect(session.tree.node(at: "browse/product#1")?.presented == nil)
        #expect(
            session.report.skipped.map(\.path.description) == [
                "browse/product#1/checkout", "browse/product#1/checkout/draft#0",
                "browse/product#1/checkout/review#1", "browse/product#1/checkout/review#1/picker",
                "browse/product#1/checkout/review#1/picker/albums", "browse/product#1/checkout/review#1/picker/recent",
            ])
        #expect(session.report.skipped.first?.reason == .notDeclared)
        #expect(session.report.skipped.first?.message == "browse/product#1 declares no presentable element checkout")
        #expect(session.report.skipped.dropFirst().allSatisfy { $0.reason == .ancestorSkipped })
    }
}
