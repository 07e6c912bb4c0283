import Foundation
import StateRestoration

/// Screens and states like an app's, for the fuzzer to decode into.
struct SearchScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "search"
    struct State: Codable, Sendable, Equatable {
        var query = ""
        var filters: [String] = []
        var scrollOffset = 0.0
        var savedAt: Date?
    }
    var state = State()
}

struct ProductScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product"
    enum Source: Codable, Sendable, Equatable {
        case search(query: String)
        case link(URL)
        case recommendation(id: UUID, rank: Int)
    }
    struct State: Codable, Sendable, Equatable {
        var productID: String
        var quantity = 1
        var source: Source?
        var variants: [Int: String] = [:]
    }
    var state: State
}

struct ComposeScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "compose"
    struct State: Codable, Sendable, Equatable {
        var body = ""
        var attachment: Data?
    }
    var state = State()
}

struct SettingsScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "settings"
    struct State: Codable, Sendable, Equatable { var region = "eu"; var limits: [Int8] = [] }
    var state = State()
}

let fuzzScreens = ScreenDeclaration {
    Tabs("tabs") {
        Stack("browse", root: SearchScreen()) {
            Screen(ProductScreen.self, id: "product")
                .presents { Screen(ComposeScreen.self, id: "compose") }
        }
        Screen(SettingsScreen(), id: "settings")
    }
}

/// Values decoded straight from the input, beside the coordinator's path.
struct FuzzModel: Codable {
    init(search: SearchScreen.State, products: [ProductScreen.State], nested: [[String: Double]], flags: Set<String>) {
        self.search = search
        self.products = products
        self.nested = nested
        self.flags = flags
    }
    var search: SearchScreen.State
    var products: [ProductScreen.State]
    var nested: [[String: Double]]
    var flags: Set<String>
}

/// A hierarchy a user left, for the seed corpus.
func seedTree() throws -> ScreenTree {
    var tree = try fuzzScreens.makeInitialTree()
    try tree.update(SearchScreen.self, at: "search#0") {
        $0.state = .init(
            query: "oat milk", filters: ["organic"], scrollOffset: 120, savedAt: Date(timeIntervalSince1970: 1e9))
    }
    try tree.push(
        ProductScreen(state: .init(productID: "p-1", quantity: 2, source: .search(query: "oat"), variants: [1: "1 l"])),
        onto: "browse")
    let recommended = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F") ?? UUID()
    try tree.push(
        ProductScreen(state: .init(productID: "p-2", source: .recommendation(id: recommended, rank: 3))),
        onto: "browse")
    try tree.present(ComposeScreen(state: .init(body: "Is it", attachment: Data([1, 2, 3]))), over: "product#2")
    try tree.selectTab("settings", in: "tabs")
    return tree
}
