import StateRestoration

/// A shop screen that can say, in a few words, what state it holds: one line of
/// the hierarchy the demo prints.
protocol ShopScreen: RestorableScreen {
    /// The state in a few words, such as `"oat milk", organic only`.
    var summary: String { get }
}

/// The search screen: a query and its filters.
struct SearchScreen: ShopScreen {
    static let typeKey: ScreenTypeKey = "search"
    struct Filters: Codable, Sendable, Equatable {
        var organicOnly = false
        var sortedByPrice = false
    }
    struct State: Codable, Sendable, Equatable {
        var query = ""
        var filters = Filters()
    }
    var state = State()

    var summary: String {
        var text = "\"\(state.query)\""
        if state.filters.organicOnly { text += ", organic only" }
        if state.filters.sortedByPrice { text += ", by price" }
        return text
    }
}

/// The results of a search, and which one is selected.
struct ResultsScreen: ShopScreen {
    static let typeKey: ScreenTypeKey = "results"
    struct State: Codable, Sendable, Equatable {
        var query: String
        var filters: SearchScreen.Filters
        var selectedIndex = 0
    }
    var state: State

    /// The products the search found, in display order.
    var products: [Product] { Catalog.search(state.query, filters: state.filters) }

    var summary: String { "\"\(state.query)\": row \(state.selectedIndex + 1) of \(products.count) selected" }
}

/// A product's detail: which product, and how many the user picked.
struct ProductScreen: ShopScreen {
    static let typeKey: ScreenTypeKey = "product"
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var quantity = 1
    }
    var state: State

    var summary: String { "\(state.productID), quantity \(state.quantity)" }
}

/// A message to the shop about a product, being written.
struct ComposeScreen: ShopScreen {
    static let typeKey: ScreenTypeKey = "compose"
    struct State: Codable, Sendable, Equatable {
        var subject: String
        var body = ""
    }
    var state: State

    var summary: String { "\"\(state.body)\"" }
}

/// The app's settings: the currency prices are shown in.
struct SettingsScreen: ShopScreen {
    static let typeKey: ScreenTypeKey = "settings"
    struct State: Codable, Sendable, Equatable {
        var currency = Currency.euro
    }
    var state = State()

    var summary: String { "currency \(state.currency.rawValue)" }
}

/// The shop's screens: a tab with the shopping stack (search, results, a
/// product, a message presented over it) and a settings tab.
let shopScreens = ScreenDeclaration {
    Tabs("tabs", selected: "shop") {
        Stack("shop", root: SearchScreen()) {
            Screen(ResultsScreen.self, id: "results")
            Screen(ProductScreen.self, id: "product")
                .presents { Screen(ComposeScreen.self, id: "compose") }
        }
        Screen(SettingsScreen(), id: "settings")
    }
}
