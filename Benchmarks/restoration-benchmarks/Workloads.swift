import Foundation

// The data every codec encodes: a plain Codable model of an app's saved screens,
// built deterministically from a seed so that every run measures the same bytes.

/// The saved state of an app with tabs, each a navigation stack of screens.
struct StateTree: Codable, Equatable, Sendable {
    var tabs: [Tab]
    var selectedTab: String
}

/// One tab: a navigation stack whose first screen is a search.
struct Tab: Codable, Equatable, Sendable {
    var identifier: String
    var title: String
    var badgeCount: Int?
    var screens: [ScreenEntry]
}

/// One screen on a stack; its identifier is the one a navigation stack gives it (`product#2`).
struct ScreenEntry: Codable, Equatable, Sendable {
    var identifier: String
    var state: ScreenState
}

/// The state of one screen, by kind.
enum ScreenState: Codable, Equatable, Sendable {
    case search(SearchState)
    case product(ProductState)
    case draft(DraftState)
    case route(RouteState)

    /// The screen type key the hierarchy uses for this kind.
    var kind: String {
        switch self {
        case .search: "search"
        case .product: "product"
        case .draft: "draft"
        case .route: "route"
        }
    }
}

struct SearchState: Codable, Equatable, Sendable {
    var query: String
    var filters: SearchFilters
    var resultIDs: [Int]
    var selectedResultID: Int?
    var scrollOffset: Double
    var lastRefreshed: Date
    var sessionID: UUID
}

struct SearchFilters: Codable, Equatable, Sendable {
    var categories: [String]
    var priceRange: PriceRange?
    var sort: SortOrder
    var inStockOnly: Bool
    var minimumRating: Double?
}

struct PriceRange: Codable, Equatable, Sendable {
    var lower: Double
    var upper: Double
}

enum SortOrder: String, Codable, Equatable, Sendable, CaseIterable {
    case relevance, priceAscending, priceDescending, newest, rating
}

struct ProductState: Codable, Equatable, Sendable {
    var productID: String
    var variantID: String?
    var quantity: Int
    var selectedImageIndex: Int
    var viewedAt: Date
    var reviewsExpanded: Bool
    var relatedProductIDs: [String]
    var giftNote: String?
    var availability: Availability
}

enum Availability: Codable, Equatable, Sendable {
    case inStock(count: Int)
    case backordered(until: Date)
    case discontinued
}

struct DraftState: Codable, Equatable, Sendable {
    var draftID: UUID
    var recipients: [String]
    var subject: String
    var body: String
    var attachments: [Attachment]
    var cursorPosition: Int
    var lastEdited: Date
    var mode: DraftMode
}

struct Attachment: Codable, Equatable, Sendable {
    var id: UUID
    var fileName: String
    var byteCount: Int
}

enum DraftMode: Codable, Equatable, Sendable {
    case new
    case reply(to: UUID)
    case forward(UUID, includeAttachments: Bool)
}

struct RouteState: Codable, Equatable, Sendable {
    var routeID: UUID
    var origin: Place
    var destination: Place
    var waypoints: [Coordinate]
    var transport: Transport
    var selectedStep: Int?
    var zoom: Double
    var distanceMeters: Int
    var departure: Date?
}

struct Place: Codable, Equatable, Sendable {
    var name: String
    var coordinate: Coordinate
}

struct Coordinate: Codable, Equatable, Sendable {
    var latitude: Double
    var longitude: Double
}

enum Transport: Codable, Equatable, Sendable {
    case walking
    case driving(avoidTolls: Bool)
    case transit(line: String, transfers: Int)
}

extension StateTree {
    /// How many screens the tree holds.
    var screenCount: Int { tabs.reduce(0) { $0 + $1.screens.count } }
}

/// A named data set the benchmarks run on.
struct Workload: Sendable {
    var name: String
    var summary: String
    var tree: StateTree

    /// One stack of 3 screens: a search, a product, a draft.
    static let small = Workload(
        name: "small", summary: "1 tab x 3 screens",
        tree: WorkloadBuilder.tree(seed: 0x5EED_0001, tabCount: 1, screensPerTab: 3))

    /// 4 tabs of 6 screens with realistic states (about 29 KB of JSON).
    static let medium = Workload(
        name: "medium", summary: "4 tabs x 6 screens",
        tree: WorkloadBuilder.tree(seed: 0x5EED_0002, tabCount: 4, screensPerTab: 6))

    /// 20 tabs of 25 screens: 500 screens.
    static let large = Workload(
        name: "large", summary: "20 tabs x 25 screens",
        tree: WorkloadBuilder.tree(seed: 0x5EED_0003, tabCount: 20, screensPerTab: 25))

    static let all = [small, medium, large]

    /// Tabs of 25 screens each, from the large workload's seed: 20 tabs are the large workload,
    /// and fewer or more tabs start with the same screens.
    static func scale(tabs: Int) -> Workload {
        Workload(
            name: "\(tabs * 25) screens", summary: "\(tabs) tabs x 25 screens",
            tree: WorkloadBuilder.tree(seed: 0x5EED_0003, tabCount: tabs, screensPerTab: 25))
    }
}

/// SplitMix64: a tiny deterministic generator, the same sequence on every run and platform.
struct SeededGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// An integer in `range`; the modulo bias is irrelevant here.
    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }

    /// A double in `range` with 1/1000 resolution (exactly representable in every format's text).
    mutating func double(_ range: ClosedRange<Double>) -> Double {
        let steps = Int((range.upperBound - range.lowerBound) * 1000)
        return range.lowerBound + Double(int(0...steps)) / 1000
    }

    mutating func chance(_ percent: Int) -> Bool { int(0...99) < percent }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    mutating func uuid() -> UUID {
        let high = next()
        let low = next()
        return UUID(
            uuid: (
                UInt8(truncatingIfNeeded: high), UInt8(truncatingIfNeeded: high >> 8),
                UInt8(truncatingIfNeeded: high >> 16), UInt8(truncatingIfNeeded: high >> 24),
                UInt8(truncatingIfNeeded: high >> 32), UInt8(truncatingIfNeeded: high >> 40),
                UInt8(truncatingIfNeeded: high >> 48) & 0x0F | 0x40, UInt8(truncatingIfNeeded: high >> 56),
                UInt8(truncatingIfNeeded: low) & 0x3F | 0x80, UInt8(truncatingIfNeeded: low >> 8),
                UInt8(truncatingIfNeeded: low >> 16), UInt8(truncatingIfNeeded: low >> 24),
                UInt8(truncatingIfNeeded: low >> 32), UInt8(truncatingIfNeeded: low >> 40),
                UInt8(truncatingIfNeeded: low >> 48), UInt8(truncatingIfNeeded: low >> 56)
            ))
    }

    /// A date in 2026 with millisecond resolution.
    mutating func date() -> Date {
        Date(timeIntervalSinceReferenceDate: 788_918_400 + Double(int(0...31_536_000_000)) / 1000)
    }
}

/// Builds workload trees from a seed.
struct WorkloadBuilder {
    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    /// The tree a seed gives: always the same for the same arguments.
    static func tree(seed: UInt64, tabCount: Int, screensPerTab: Int) -> StateTree {
        var builder = WorkloadBuilder(seed: seed)
        return builder.makeTree(tabCount: tabCount, screensPerTab: screensPerTab)
    }

    private static let words = [
        "organic", "milk", "oat", "coffee", "beans", "dark", "roast", "kettle", "ceramic", "mug", "travel",
        "backpack", "waterproof", "running", "shoes", "trail", "lightweight", "jacket", "merino", "wool",
        "socks", "cast", "iron", "pan", "chef", "knife", "bamboo", "board", "espresso", "grinder", "manual",
        "delivery", "tomorrow", "morning", "please", "leave", "parcel", "door", "thanks", "meeting", "agenda",
        "quarterly", "review", "budget", "draft", "proposal", "attached", "station", "bridge", "museum",
        "harbour", "market", "square", "avenue", "garden", "library", "café", "Zürich", "naïve", "straße",
    ]
    private static let categories = [
        "grocery", "kitchen", "outdoor", "clothing", "footwear", "electronics", "books", "garden", "toys", "beauty",
    ]
    private static let tabTitles = ["Home", "Browse", "Orders", "Messages", "Maps", "Saved", "Deals", "Account"]
    private static let fileKinds = ["pdf", "jpg", "png", "docx", "heic"]

    mutating func words(_ count: ClosedRange<Int>) -> String {
        (0..<random.int(count)).map { _ in random.pick(Self.words) }.joined(separator: " ")
    }

    mutating func productID() -> String { "p-\(random.int(10_000...99_999))" }

    mutating func makeTree(tabCount: Int, screensPerTab: Int) -> StateTree {
        var tabs: [Tab] = []
        for index in 0..<tabCount {
            var screens = [ScreenEntry(identifier: "search#0", state: .search(search()))]
            for position in 1..<screensPerTab {
                let roll = random.int(0...99)
                let state: ScreenState =
                    roll < 45 ? .product(product()) : roll < 70 ? .route(route()) : .draft(draft())
                screens.append(ScreenEntry(identifier: "\(state.kind)#\(position)", state: state))
            }
            let title = Self.tabTitles[index % Self.tabTitles.count]
            tabs.append(
                Tab(
                    identifier: "tab\(index)", title: index < Self.tabTitles.count ? title : "\(title) \(index)",
                    badgeCount: random.chance(30) ? random.int(1...99) : nil, screens: screens))
        }
        return StateTree(tabs: tabs, selectedTab: tabs[random.int(0...(tabs.count - 1))].identifier)
    }

    mutating func search() -> SearchState {
        SearchState(
            query: words(1...4),
            filters: SearchFilters(
                categories: (0..<random.int(0...4)).map { _ in random.pick(Self.categories) },
                priceRange: random.chance(60)
                    ? PriceRange(lower: random.double(0...50), upper: random.double(50...500)) : nil,
                sort: random.pick(SortOrder.allCases), inStockOnly: random.chance(50),
                minimumRating: random.chance(40) ? random.double(1...5) : nil),
            resultIDs: (0..<random.int(40...100)).map { _ in random.int(100_000...9_999_999) },
            selectedResultID: random.chance(50) ? random.int(100_000...9_999_999) : nil,
            scrollOffset: random.double(0...12_000), lastRefreshed: random.date(), sessionID: random.uuid())
    }

    mutating func product() -> ProductState {
        let availability: Availability
        switch random.int(0...2) {
        case 0: availability = .inStock(count: random.int(1...500))
        case 1: availability = .backordered(until: random.date())
        default: availability = .discontinued
        }
        return ProductState(
            productID: productID(), variantID: random.chance(50) ? "v-\(random.int(100...999))" : nil,
            quantity: random.int(1...5), selectedImageIndex: random.int(0...7), viewedAt: random.date(),
            reviewsExpanded: random.chance(30), relatedProductIDs: (0..<random.int(6...20)).map { _ in productID() },
            giftNote: random.chance(30) ? words(4...12) : nil, availability: availability)
    }

    mutating func draft() -> DraftState {
        let mode: DraftMode
        switch random.int(0...2) {
        case 0: mode = .new
        case 1: mode = .reply(to: random.uuid())
        default: mode = .forward(random.uuid(), includeAttachments: random.chance(50))
        }
        let body = words(80...200)
        return DraftState(
            draftID: random.uuid(),
            recipients: (0..<random.int(1...3)).map { _ in "\(random.pick(Self.words))\(random.int(1...99))@example.com"
            },
            subject: words(2...7), body: body,
            attachments: (0..<random.int(0...3)).map { _ in
                Attachment(
                    id: random.uuid(),
                    fileName: "\(random.pick(Self.words))-\(random.int(1...999)).\(random.pick(Self.fileKinds))",
                    byteCount: random.int(1_000...20_000_000))
            },
            cursorPosition: random.int(0...body.utf8.count), lastEdited: random.date(), mode: mode)
    }

    mutating func coordinate() -> Coordinate {
        Coordinate(latitude: random.double(47...48), longitude: random.double(8...9))
    }

    mutating func route() -> RouteState {
        let transport: Transport
        switch random.int(0...2) {
        case 0: transport = .walking
        case 1: transport = .driving(avoidTolls: random.chance(50))
        default: transport = .transit(line: "S\(random.int(1...25))", transfers: random.int(0...3))
        }
        return RouteState(
            routeID: random.uuid(), origin: Place(name: words(1...3), coordinate: coordinate()),
            destination: Place(name: words(1...3), coordinate: coordinate()),
            waypoints: (0..<random.int(18...54)).map { _ in coordinate() }, transport: transport,
            selectedStep: random.chance(50) ? random.int(0...9) : nil, zoom: random.double(10...18),
            distanceMeters: random.int(200...40_000), departure: random.chance(60) ? random.date() : nil)
    }
}
