import Foundation
import StateRestoration

/// The search screen: a query, filters, and where the list was scrolled to.
struct SearchScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "search"
    struct Filters: Codable, Sendable, Equatable {
        var organic = false
        var maxPrice: Decimal?
        var categories: [String] = []
    }
    struct State: Codable, Sendable, Equatable {
        var query = ""
        var filters = Filters()
        var scrollOffset = 0.0
    }
    var state = State()
}

/// A product's detail: which product, and how many the user picked.
struct ProductScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var quantity = 1
    }
    var state: State
}

/// A message being written, with the field that had focus.
struct ComposeScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "compose"
    enum Field: String, Codable, Sendable { case subject, body }
    struct State: Codable, Sendable, Equatable {
        var subject = ""
        var body = ""
        var focus: Field?
    }
    var state = State()
}

/// Account settings.
struct SettingsScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "settings"
    struct State: Codable, Sendable, Equatable {
        var notifications = true
        var currency = "EUR"
    }
    var state = State()
}

/// The shop's screens: tabs with a browsing stack, settings, and a compose sheet
/// that may be presented over a product.
let shopScreens = ScreenDeclaration {
    Tabs("tabs", selected: "browse") {
        Stack("browse", root: SearchScreen()) {
            Screen(ProductScreen.self, id: "product")
                .presents { Screen(ComposeScreen.self, id: "compose") }
        }
        Screen(SettingsScreen(), id: "settings")
    }
}

/// What a user did before the app went to the background.
func userSession() throws -> ScreenTree {
    var tree = try shopScreens.makeInitialTree()
    try tree.update(SearchScreen.self, at: "search#0") {
        $0.state.query = "oat milk"
        $0.state.filters = .init(organic: true, maxPrice: 3.5, categories: ["dairy-free", "barista"])
        $0.state.scrollOffset = 824
    }
    try tree.push(ProductScreen(state: .init(productID: "p-1093")), onto: "browse")
    try tree.push(ProductScreen(state: .init(productID: "p-2208", quantity: 2)), onto: "browse")
    try tree.present(
        ComposeScreen(state: .init(subject: "Question about p-2208", body: "Is the 1 l carton", focus: .body)),
        over: "product#2")
    try tree.update(SettingsScreen.self, at: "settings") { $0.state.currency = "JPY" }
    return tree
}
