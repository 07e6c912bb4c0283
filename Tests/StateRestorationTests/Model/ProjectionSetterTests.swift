import Foundation
import StateRestoration
import TestScreens
import Testing

/// What a projection's setter accepts: what a user can do from the UI, and nothing else.
@MainActor
@Suite struct ProjectionSetterTests {
    let model: RestorationModel<DefaultRestorationDelegate>

    init() throws {
        model = try RestorationModel(screens: Shop.declaration(), store: InMemoryStore())
        try model.tree.push(ProductScreen("p-1"), onto: "browse")
        try model.tree.push(ProductScreen("p-2"), onto: "browse")
        try model.tree.push(ReviewScreen(state: .init(productID: "p-2", rating: 4, draft: "")), onto: "browse")
    }

    var browse: [ScreenEntry] { model.screens(of: "browse").wrappedValue }

    @Test func theStackTakesAnyPrefix() throws {
        let before = browse
        try model.path(of: "browse").set(Array(before[1...2]))  // a back swipe
        #expect(browse == Array(before.prefix(3)))
        try model.path(of: "browse").set([])  // pop to root
        #expect(browse == [before[0]])
    }

    @Test func theStackTakesDeclaredScreensAppended() throws {
        let before = browse
        let opened = ScreenEntry(ProductScreen("p-3"))
        try model.path(of: "browse").set(Array(before.dropFirst()) + [opened])
        #expect(browse == before + [opened])
        #expect(model.tree.screen(ProductScreen.self, at: opened.reference)?.state.productID == "p-3")
        #expect(model.tree["tabs/browse/product#4"]?.id == opened.id)
        // Going back two levels and opening another screen, in one set.
        let other = ScreenEntry(ReviewScreen(state: .init(productID: "p-1", rating: 5, draft: "")))
        try model.path(of: "browse").set([before[1], other])
        #expect(browse == [before[0], before[1], other])
    }

    @Test func theStackRefusesWhatNoUserDoes() throws {
        let before = browse
        let tree = model.tree
        func refused(_ entries: [ScreenEntry]) -> HierarchyError? {
            do {
                try model.screens(of: "browse").set(entries)
                return nil
            } catch { return error }
        }
        let reordered = refused([before[0], before[2], before[1]])
        #expect(reordered?.code == .notAPrefix)
        #expect(reordered?.description.contains("tabs/browse") == true)
        #expect(refused([before[0], before[2]])?.code == .notAPrefix)
        #expect(refused([])?.code == .cannotPopRoot)
        let undeclared = refused(before + [ScreenEntry(SettingsScreen())])
        #expect(undeclared?.code == .notDeclared)
        #expect(undeclared?.description.contains("tabs/browse") == true)
        let stale = try #require(model.tree["settings"].map(ScreenEntry.init))
        #expect(refused(before + [stale])?.code == .notAPrefix)
        #expect(model.tree == tree)
        #expect(browse == before)
        // Through the binding's setter, the refusal is reported to the model.
        model.screens(of: "browse").wrappedValue = [before[0], before[2]]
        #expect(model.lastRefusal?.code == .notAPrefix)
        #expect(browse == before)
        model.lastRefusal = nil  // shown, then dismissed
        model.screens(of: "browse").wrappedValue = Array(before.prefix(2))
        #expect(model.lastRefusal == nil)
    }

    @Test func aStateEditKeepsTheEntry() throws {
        let before = browse
        let product = try #require(model.state(of: ProductScreen.self, at: before[1].reference))
        product.wrappedValue.quantity = 9
        #expect(browse == before)
        #expect(model.tree.screen(ProductScreen.self, at: "product#1")?.state.quantity == 9)
    }

    @Test func aScreenAtAReusedPositionIsANewEntry() throws {
        let before = browse
        try model.tree.pop(from: "browse")
        try model.tree.push(ReviewScreen(state: .init(productID: "p-2", rating: 4, draft: "")), onto: "browse")
        let after = browse
        #expect(after.count == before.count)
        #expect(after[3] != before[3])  // same position, same type and state, another screen
        #expect(
            StackChange.changes(from: before.map(\.id), to: after.map(\.id)) == [
                .popTo(before[2].id), .push([after[3].id]),
            ])
    }

    @Test func theSelectedTab() throws {
        let tab = model.selectedTab(in: "tabs")
        tab.wrappedValue = "settings"
        #expect(model.tree["tabs"]?.selectedChild?.identifier == "settings")
        #expect(throws: HierarchyError.self) { try tab.set("nowhere") }
        #expect(tab.wrappedValue == "settings")
    }

    @Test func thePresentedScreen() throws {
        let sheet = model.presented(over: "product#2")
        #expect(sheet.wrappedValue == nil)
        let compose = ScreenEntry(ComposeScreen(state: .init(to: "a@example.com")))
        sheet.wrappedValue = compose
        #expect(sheet.wrappedValue == compose)
        #expect(model.tree.screen(ComposeScreen.self, at: compose.reference)?.state.to == "a@example.com")
        sheet.wrappedValue = compose  // the same entry again: no change
        #expect(sheet.wrappedValue == compose)
        let stale = ScreenEntry(try #require(model.tree["search#0"]))
        #expect(throws: HierarchyError.self) { try sheet.set(stale) }
        #expect(sheet.wrappedValue == compose)
        sheet.wrappedValue = nil  // swiped down
        #expect(model.tree["product#2"]?.presented == nil)
        #expect(throws: HierarchyError.self) {
            try model.presented(over: "product#1").set(ScreenEntry(SettingsScreen()))
        }
    }

    @Test func aBindingToADraft() throws {
        try model.tree.present(ComposeScreen(), over: "product#2")
        let entry = try #require(model.presented(over: "product#2").wrappedValue)
        let draft = try #require(model.state(of: ComposeScreen.self, at: entry.reference))
        draft.wrappedValue.body = "Is it lactose free?"
        #expect(model.tree.screen(ComposeScreen.self, at: "compose")?.state.body == "Is it lactose free?")
        #expect(model.state(of: ProductScreen.self, at: entry.reference) == nil)  // not a product
    }

    @Test func aContainersChildren() throws {
        let panes = model.children(of: "split")
        let mailbox = ScreenEntry(MailboxScreen(state: .init(folder: "sent")))
        panes.wrappedValue = [mailbox]
        #expect(panes.wrappedValue == [mailbox])
        #expect(model.tree.screen(MailboxScreen.self, at: "tabs/split/mailbox")?.state.folder == "sent")
        let message = ScreenEntry(MessageScreen(state: .init(messageID: .init())))
        panes.wrappedValue = [mailbox, message]
        #expect(throws: HierarchyError.self) { try panes.set([message, mailbox]) }  // reordered
        panes.wrappedValue = [message]  // the user closed the mailbox
        #expect(panes.wrappedValue == [message])
        #expect(throws: HierarchyError.self) { try model.children(of: "browse").set([]) }
    }
}
