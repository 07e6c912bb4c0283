import Foundation

// A realistic restoration-state tree with every type the codec supports.

struct ScreenState: Codable, Equatable {
    var id: UUID
    var restorationIdentifier: String
    var title: String
    var subtitle: String?
    var scrollOffset: Double
    var zoom: Float
    var selectedIndex: Int
    var badge: Int8
    var unread: UInt16
    var flags: UInt8
    var visits: Int64
    var bytesSeen: UInt64
    var width: Int32
    var height: UInt32
    var depthHint: Int16
    var sequence: UInt
    var isEditing: Bool
    var draft: String?
    var focusedField: Focus?
    var selectedItemIDs: [UUID]
    var lastVisited: Date
    var expiry: Date?
    var link: URL?
    var thumbnail: Data
    var tags: [String]
    var scores: [Double]
    var counts: [Int]
    var options: [Bool]
    var route: Route
    var children: [ScreenState]
    var metrics: [String: Int]
    var sections: [Int: String]
    var matrix: [[Int]]
    var attributes: [String: [String]]
    var empty: [String]
    var emptyObject: EmptyState
    var nested: Nested?
    var price: Decimal
}

struct EmptyState: Codable, Equatable {}

struct Nested: Codable, Equatable {
    var name: String
    var values: [Int64]
    var lookup: [String: Nested]
}

enum Focus: String, Codable, Equatable {
    case title, body, search
}

enum Route: Codable, Equatable {
    case inbox
    case message(id: UUID, folder: String)
    case search(query: String, page: Int?, filters: [String])
    case settings(Settings)
    indirect case stack([Route])
}

struct Settings: Codable, Equatable {
    var theme: String
    var fontScale: Double
}

extension ScreenState {
    /// A deterministic instance; `seed` varies the contents, `depth` the children.
    static func sample(seed: Int, depth: Int = 2) -> ScreenState {
        func uuid(_ n: Int) -> UUID {
            let b = UInt8(truncatingIfNeeded: n)
            let c = UInt8(truncatingIfNeeded: n >> 8)
            return UUID(uuid: (b, c, 1, 2, 3, 4, 0x45, 6, 0x87, 8, 9, 10, 11, 12, b, c))
        }
        let routes: [Route] = [
            .inbox,
            .message(id: uuid(seed), folder: "Archive \(seed)"),
            .search(query: "milk \(seed)", page: seed % 2 == 0 ? nil : seed, filters: ["unread", "flagged"]),
            .settings(Settings(theme: "dark", fontScale: 1.25)),
            .stack([.inbox, .message(id: uuid(seed + 1), folder: "Sent")]),
        ]
        return ScreenState(
            id: uuid(seed),
            restorationIdentifier: "screen.\(seed)",
            title: "Screen number \(seed) — ünïcødé ✓",
            subtitle: seed % 3 == 0 ? nil : "Subtitle \(seed)",
            scrollOffset: Double(seed) * 12.5,
            zoom: 1.5,
            selectedIndex: seed % 7 - 3,
            badge: -8,
            unread: 300,
            flags: 0xA5,
            visits: Int64.min + Int64(seed),
            bytesSeen: UInt64.max - UInt64(seed),
            width: Int32.max,
            height: 1080,
            depthHint: -300,
            sequence: UInt(seed) * 1_000_003,
            isEditing: seed % 2 == 0,
            draft: seed % 2 == 0 ? "Half-typed message \(seed)" : nil,
            focusedField: seed % 2 == 0 ? .body : nil,
            selectedItemIDs: (0..<(seed % 5)).map { uuid(seed * 10 + $0) },
            lastVisited: Date(timeIntervalSinceReferenceDate: 700_000_000.25 + Double(seed)),
            expiry: seed % 2 == 0 ? Date(timeIntervalSince1970: -12_345.5) : nil,
            link: URL(string: "https://example.com/items/\(seed)?q=a%20b#frag"),
            thumbnail: Data((0..<(seed % 40)).map { UInt8(truncatingIfNeeded: $0 &* 37) }),
            tags: ["alpha", "beta", "γ"].prefix(seed % 4).map { $0 },
            scores: [0.5, -1e300, .pi, .infinity],
            counts: [0, 1, -1, 127, 128, -129, Int.max, Int.min],
            options: [true, false, true],
            route: routes[seed % routes.count],
            children: depth > 0 ? (0..<2).map { sample(seed: seed * 3 + $0 + 1, depth: depth - 1) } : [],
            metrics: ["views": seed, "likes": -seed],
            sections: [0: "zero", 7: "seven", -2: "minus two"],
            matrix: [[1, 2], [], [3]],
            attributes: ["colors": ["red", "green"], "none": []],
            empty: [],
            emptyObject: EmptyState(),
            nested: Nested(
                name: "outer",
                values: [1, -2, 3],
                lookup: ["inner": Nested(name: "inner", values: [], lookup: [:])]
            ),
            price: Decimal(string: "1234.5678") ?? 0
        )
    }
}
