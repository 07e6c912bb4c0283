import Foundation
import StateRestoration
import Synchronization
import TestScreens

/// The hierarchies, app-wide states and shared objects the golden archives in
/// `Tests/StateRestorationTests/Fixtures/` hold. Every value is fixed here: a change to one is a
/// change to a golden archive, which every later build must still restore.
enum Golden: String, CaseIterable, Sendable {
    /// The shop's busy tree: tabs, a stack with pushed screens and a presented sheet, a
    /// custom container, the split tab selected.
    case shopBusyTree = "shop-busy-tree"
    /// A small stack with two shared objects, the app-wide state, one metadata value and the
    /// snapshot refused.
    case sharedObjects = "shared-objects"
    /// One screen whose state holds every kind of scalar the format has, at its edges.
    case everyScalar = "every-scalar"
    /// A stack presented over a product, a screen pushed onto it, tabs presented over that.
    case presentedContainer = "presented-container"

    /// The date the archives were saved at, and the clock of every coordinator that reads or
    /// writes them: a save of the same values then writes the same bytes.
    static let savedAt = Date(timeIntervalSinceReferenceDate: 785_500_860.5)

    var declaration: ScreenDeclaration {
        switch self {
        case .shopBusyTree: Shop.declaration()
        case .sharedObjects:
            ScreenDeclaration {
                Stack("shop", root: SearchScreen()) {
                    Screen(ProductScreen.self, id: "product")
                }
            }
        case .everyScalar:
            ScreenDeclaration {
                Stack("scalars", root: ScalarsScreen()) {}
            }
        case .presentedContainer:
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
                        }
                }
            }
        }
    }

    /// The hierarchy the archive holds.
    func tree() throws -> ScreenTree {
        switch self {
        case .shopBusyTree:
            return try Shop.busyTree()
        case .sharedObjects:
            var tree = try declaration.makeInitialTree()
            try tree.update(SearchScreen.self, at: "shop/search#0") { $0.state.query = "oat milk" }
            try tree.push(
                ProductScreen(state: .init(productID: "p-7", quantity: 2, viewedAt: Self.savedAt)), onto: "shop")
            return tree
        case .everyScalar:
            var tree = try declaration.makeInitialTree()
            try tree.update(ScalarsScreen.self, at: "scalars/scalars#0") { $0.state = .edges }
            return tree
        case .presentedContainer:
            var tree = try declaration.makeInitialTree()
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

    /// The configuration of every coordinator that reads or writes the archive.
    var configuration: RestorationConfiguration {
        RestorationConfiguration(appVersion: self == .everyScalar ? nil : "2.4 (311)", now: { Golden.savedAt })
    }

    /// The delegate of a save of the archive's values.
    func savingDelegate() throws -> GoldenDelegate {
        var delegate = GoldenDelegate()
        if self == .sharedObjects {
            delegate.appState = GoldenDelegate.AppState(cartCount: 3, lastSync: Self.savedAt - 90, region: "jp")
            try delegate.metadata.set("jp", forKey: "region")
        }
        return delegate
    }

    /// The shared objects the archive holds, with their saved states; empty ones (to restore
    /// into) with `saved` false.
    func objects(saved: Bool) -> [String: any GoldenObject] {
        guard self == .sharedObjects else { return [:] }
        return [
            "cart": GoldenCart(saved ? .init(items: ["oat milk", "rye bread"], coupon: nil) : .init(items: [])),
            "recently-viewed": GoldenHistory(
                saved
                    ? .init(productIDs: ["p-7", "p-1"], viewedAt: [Self.savedAt - 60, Self.savedAt - 3600]) : .init()),
        ]
    }

    /// Whether a save asks the next launch not to show the snapshot.
    var ignoresSnapshot: Bool { self == .sharedObjects }
}

/// The delegate of the golden archives' coordinators: it gives a save its app-wide state and
/// metadata, and keeps what a launch decoded.
struct GoldenDelegate: RestorationDelegate {
    struct AppState: Codable, Sendable, Equatable {
        var cartCount: Int
        var lastSync: Date
        var region: String?
    }

    /// What a save writes beside the hierarchy.
    var appState: AppState?
    var metadata = RestorationMetadata()
    /// The app-wide state a launch decoded.
    let decoded = Decoded()

    /// Where a launch leaves the app-wide state it decoded.
    final class Decoded: Sendable {
        let appState = Mutex<AppState?>(nil)
    }

    func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool {
        metadata = self.metadata
        return true
    }

    func willEncodeRestorableState() async -> AppState? { appState }

    func didDecodeRestorableState(_ state: AppState?, context: RestorationContext) async {
        decoded.appState.withLock { $0 = state }
    }
}

/// A shared object of a golden archive, whose state a test can print.
protocol GoldenObject: RestorableObject {
    /// The state, as Swift prints it.
    var stateDescription: String { get }
}

/// A cart, shared by the shop's screens.
final class GoldenCart: GoldenObject {
    static let typeKey: ScreenTypeKey = "cart"
    struct State: Codable, Sendable, Equatable {
        var items: [String]
        var coupon: String?
    }

    private let state: Mutex<State>

    init(_ state: State) { self.state = Mutex(state) }

    var stateDescription: String { state.withLock { String(describing: $0) } }
    func encodeRestorableState() async -> State { state.withLock { $0 } }
    func decodeRestorableState(_ state: State) async { self.state.withLock { $0 = state } }
}

/// The products viewed recently, shared by the shop's screens.
final class GoldenHistory: GoldenObject {
    static let typeKey: ScreenTypeKey = "history"
    struct State: Codable, Sendable, Equatable {
        var productIDs: [String] = []
        var viewedAt: [Date] = []
    }

    private let state: Mutex<State>

    init(_ state: State) { self.state = Mutex(state) }

    var stateDescription: String { state.withLock { String(describing: $0) } }
    func encodeRestorableState() async -> State { state.withLock { $0 } }
    func decodeRestorableState(_ state: State) async { self.state.withLock { $0 = state } }
}

/// A screen whose state holds every kind of scalar the archive format has, at the edges of its
/// encodings: integers at the ends of their types and of the one-byte tags, doubles and dates
/// with and without a short decimal form, strings and arrays at the length where their tag
/// stops holding the length, data large and small, a value absent, nulls, an enum with payloads.
struct ScalarsScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "scalars"

    struct Small: Codable, Sendable, Equatable {
        var x = 1
    }

    struct Empty: Codable, Sendable, Equatable {}

    enum Route: Codable, Sendable, Equatable {
        case home
        case product(id: String, quantity: Int?)
        indirect case stack([Route])
    }

    struct State: Codable, Sendable, Equatable {
        var flags: [Bool] = []
        var yes = false
        var ints: [Int] = []
        var intMin = 0
        var intMax = 0
        var packedLow = 0
        var packedHigh = 0
        var belowPacked = 0
        var abovePacked = 0
        var int8: Int8 = 0
        var int16: Int16 = 0
        var int32: Int32 = 0
        var int64: Int64 = 0
        var uint: UInt = 0
        var uint8: UInt8 = 0
        var uint16: UInt16 = 0
        var uint32: UInt32 = 0
        var uint64: UInt64 = 0
        var uint64s: [UInt64] = []
        var doubles: [Double] = []
        var decimal = 0.0
        var scaleSeven = 0.0
        var third = 0.0
        var negativeZero = 0.0
        var infinity = 0.0
        var largest = 0.0
        var tiniest = 0.0
        var float: Float = 0
        var floats: [Float] = []
        var date = Date(timeIntervalSinceReferenceDate: 0)
        var dates: [Date] = []
        var uuid = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        var uuids: [UUID] = []
        var url: URL?
        var data = Data()
        var largeData = Data()
        var price: Decimal = 0
        var empty = ""
        var longestPacked = ""
        var shortestUnpacked = ""
        var unicode = ""
        var strings: [String] = []
        var absent: String?
        var optionals: [Int?] = []
        var matrix: [[Int]] = []
        var lookup: [String: Int] = [:]
        var byNumber: [Int: String] = [:]
        var small = Small()
        var emptyObject = Empty()
        var emptyArray: [String] = []
        var thirtyOne: [Bool] = []
        var thirtyTwo: [Bool] = []
        var route = Route.home

        /// Every field at an edge.
        static var edges: State {
            var state = State()
            state.flags = [true, false, true]
            state.yes = true
            state.ints = [0, -1, 1, -32, 31, -33, 32, 127, 128, Int.max, Int.min]
            state.intMin = Int.min
            state.intMax = Int.max
            state.packedLow = -32
            state.packedHigh = 31
            state.belowPacked = -33
            state.abovePacked = 32
            state.int8 = Int8.min
            state.int16 = Int16.max
            state.int32 = Int32.min
            state.int64 = Int64.max
            state.uint = UInt.max
            state.uint8 = UInt8.max
            state.uint16 = UInt16.max
            state.uint32 = UInt32.max
            state.uint64 = UInt64.max
            state.uint64s = [0, 127, 128, UInt64.max]
            state.doubles = [0, -0.0, 0.5, 47.123, 1.0 / 3, .pi, -1e300, .infinity, -.infinity]
            state.decimal = 47.123
            state.scaleSeven = 219_901.123_456_7
            state.third = 1.0 / 3
            state.negativeZero = -0.0
            state.infinity = -.infinity
            state.largest = .greatestFiniteMagnitude
            state.tiniest = .leastNonzeroMagnitude
            state.float = .pi
            state.floats = [0, -1.5, .greatestFiniteMagnitude, -.infinity]
            state.date = Date(timeIntervalSinceReferenceDate: 700_000_000.25)
            state.dates = [
                Date(timeIntervalSinceReferenceDate: 0), Date(timeIntervalSinceReferenceDate: 1.0 / 3),
                Date(timeIntervalSince1970: -12_345.5), Date(timeIntervalSince1970: -2_208_988_800), .distantFuture,
            ]
            state.uuid = UUID(
                uuid: (0xE6, 0x21, 0xE1, 0xF8, 0xC3, 0x6C, 0x49, 0x5A, 0x93, 0xFC, 0x0C, 0x24, 0x7A, 0x3E, 0x6E, 0x5F))
            state.uuids = [
                state.uuid, UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 1)),
            ]
            state.url = URL(string: "https://example.com/items/7?q=a%20b#frag")
            state.data = Data([0, 1, 0xFE, 0xFF])
            state.largeData = Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            state.price = Decimal(string: "1234.5678") ?? 0
            state.longestPacked = String(repeating: "a", count: 63)
            state.shortestUnpacked = String(repeating: "b", count: 64)
            state.unicode = "ünïcødé ✓ 🎉"
            state.strings = ["", "alpha", "γ", String(repeating: "c", count: 200)]
            state.optionals = [1, nil, 3]
            state.matrix = [[1, 2], [], [3]]
            state.lookup = ["only": 1]
            state.byNumber = [7: "seven"]
            state.thirtyOne = (0..<31).map { $0 % 3 == 0 }
            state.thirtyTwo = (0..<32).map { $0 % 2 == 0 }
            state.route = .stack([.home, .product(id: "p-1", quantity: nil), .product(id: "p-2", quantity: 2)])
            return state
        }
    }

    var state = State()

    init(state: State = State()) { self.state = state }
}
