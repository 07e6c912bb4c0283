import Foundation

// The UIKit way: NSSecureCoding classes that encode the same fields by key with
// `encode(_:forKey:)` and read them back with `decodeObject(of:forKey:)`,
// `decodeInteger(forKey:)`, `decodeDouble(forKey:)`, `decodeBool(forKey:)`.
// Nested structs are classes of their own (arrays of them are NSArrays of
// objects); an enum is an integer case key plus one key per associated value;
// a nil optional is an absent key. Each class wraps the model value, so the
// time includes making the object graph, as `encodeRestorableState(with:)` and
// `decodeRestorableState(with:)` would.

extension Codec {
    /// `NSKeyedArchiver(requiringSecureCoding: true)` and
    /// `NSKeyedUnarchiver.unarchivedObject(ofClasses:from:)`.
    static func keyedArchiver() -> Codec {
        Codec(
            name: "NSKeyedArchiver",
            encode: { tree in
                let archiver = NSKeyedArchiver(requiringSecureCoding: true)
                archiver.encode(TreeObject(tree), forKey: NSKeyedArchiveRootObjectKey)
                archiver.finishEncoding()
                return archiver.encodedData
            },
            decode: { data in
                let root = try NSKeyedUnarchiver.unarchivedObject(ofClasses: KeyedClasses.all, from: data)
                guard let tree = root as? TreeObject else {
                    throw BenchmarkFailure("NSKeyedUnarchiver returned \(root.map { "\(type(of: $0))" } ?? "nil")")
                }
                return tree.value
            })
    }
}

enum KeyedClasses {
    /// Every class an archive of a tree may contain.
    static let all: [AnyClass] = [
        TreeObject.self, TabObject.self, ScreenObject.self, SearchObject.self, FiltersObject.self,
        PriceRangeObject.self, ProductObject.self, DraftObject.self, AttachmentObject.self, RouteObject.self,
        PlaceObject.self, CoordinateObject.self, NSArray.self, NSString.self, NSNumber.self, NSDate.self,
        NSUUID.self,
    ]
}

extension NSCoder {
    func string(forKey key: String) -> String? { decodeObject(of: NSString.self, forKey: key) as? String }
    func strings(forKey key: String) -> [String]? {
        decodeObject(of: [NSArray.self, NSString.self], forKey: key) as? [String]
    }
    func integers(forKey key: String) -> [Int]? {
        decodeObject(of: [NSArray.self, NSNumber.self], forKey: key) as? [Int]
    }
    func objects<T: NSObject>(of type: T.Type, forKey key: String) -> [T]? {
        decodeObject(of: [NSArray.self, T.self], forKey: key) as? [T]
    }
    func date(forKey key: String) -> Date? { decodeObject(of: NSDate.self, forKey: key) as? Date }
    func uuid(forKey key: String) -> UUID? { decodeObject(of: NSUUID.self, forKey: key) as? UUID }
    // swift-corelibs-foundation fails the whole unarchiving when an object key is
    // missing, rather than returning nil as Apple's NSKeyedUnarchiver does; so an
    // optional is decoded only when its key is there.
    func optionalString(forKey key: String) -> String? { containsValue(forKey: key) ? string(forKey: key) : nil }
    func optionalDate(forKey key: String) -> Date? { containsValue(forKey: key) ? date(forKey: key) : nil }
    func optionalInteger(forKey key: String) -> Int? { containsValue(forKey: key) ? decodeInteger(forKey: key) : nil }
    func optionalDouble(forKey key: String) -> Double? { containsValue(forKey: key) ? decodeDouble(forKey: key) : nil }

    func encode(_ date: Date, forKey key: String) { encode(date as NSDate, forKey: key) }
    func encode(_ uuid: UUID, forKey key: String) { encode(uuid as NSUUID, forKey: key) }
    func encodeIfPresent(_ value: Int?, forKey key: String) { if let value { encode(value, forKey: key) } }
    func encodeIfPresent(_ value: Double?, forKey key: String) { if let value { encode(value, forKey: key) } }
    func encodeIfPresent(_ value: String?, forKey key: String) { if let value { encode(value, forKey: key) } }
}

final class TreeObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: StateTree
    init(_ value: StateTree) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.tabs.map(TabObject.init), forKey: "tabs")
        coder.encode(value.selectedTab, forKey: "selectedTab")
    }

    init?(coder: NSCoder) {
        guard let tabs = coder.objects(of: TabObject.self, forKey: "tabs"),
            let selectedTab = coder.string(forKey: "selectedTab")
        else { return nil }
        value = StateTree(tabs: tabs.map(\.value), selectedTab: selectedTab)
    }
}

final class TabObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: Tab
    init(_ value: Tab) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.identifier, forKey: "identifier")
        coder.encode(value.title, forKey: "title")
        coder.encodeIfPresent(value.badgeCount, forKey: "badgeCount")
        coder.encode(value.screens.map(ScreenObject.init), forKey: "screens")
    }

    init?(coder: NSCoder) {
        guard let identifier = coder.string(forKey: "identifier"), let title = coder.string(forKey: "title"),
            let screens = coder.objects(of: ScreenObject.self, forKey: "screens")
        else { return nil }
        value = Tab(
            identifier: identifier, title: title, badgeCount: coder.optionalInteger(forKey: "badgeCount"),
            screens: screens.map(\.value))
    }
}

final class ScreenObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: ScreenEntry
    init(_ value: ScreenEntry) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.identifier, forKey: "identifier")
        switch value.state {
        case .search(let state):
            coder.encode(0, forKey: "kind")
            coder.encode(SearchObject(state), forKey: "state")
        case .product(let state):
            coder.encode(1, forKey: "kind")
            coder.encode(ProductObject(state), forKey: "state")
        case .draft(let state):
            coder.encode(2, forKey: "kind")
            coder.encode(DraftObject(state), forKey: "state")
        case .route(let state):
            coder.encode(3, forKey: "kind")
            coder.encode(RouteObject(state), forKey: "state")
        }
    }

    init?(coder: NSCoder) {
        guard let identifier = coder.string(forKey: "identifier") else { return nil }
        let state: ScreenState
        switch coder.decodeInteger(forKey: "kind") {
        case 0:
            guard let object = coder.decodeObject(of: SearchObject.self, forKey: "state") else { return nil }
            state = .search(object.value)
        case 1:
            guard let object = coder.decodeObject(of: ProductObject.self, forKey: "state") else { return nil }
            state = .product(object.value)
        case 2:
            guard let object = coder.decodeObject(of: DraftObject.self, forKey: "state") else { return nil }
            state = .draft(object.value)
        case 3:
            guard let object = coder.decodeObject(of: RouteObject.self, forKey: "state") else { return nil }
            state = .route(object.value)
        default:
            return nil
        }
        value = ScreenEntry(identifier: identifier, state: state)
    }
}

final class SearchObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: SearchState
    init(_ value: SearchState) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.query, forKey: "query")
        coder.encode(FiltersObject(value.filters), forKey: "filters")
        coder.encode(value.resultIDs, forKey: "resultIDs")
        coder.encodeIfPresent(value.selectedResultID, forKey: "selectedResultID")
        coder.encode(value.scrollOffset, forKey: "scrollOffset")
        coder.encode(value.lastRefreshed, forKey: "lastRefreshed")
        coder.encode(value.sessionID, forKey: "sessionID")
    }

    init?(coder: NSCoder) {
        guard let query = coder.string(forKey: "query"),
            let filters = coder.decodeObject(of: FiltersObject.self, forKey: "filters"),
            let resultIDs = coder.integers(forKey: "resultIDs"),
            let lastRefreshed = coder.date(forKey: "lastRefreshed"), let sessionID = coder.uuid(forKey: "sessionID")
        else { return nil }
        value = SearchState(
            query: query, filters: filters.value, resultIDs: resultIDs,
            selectedResultID: coder.optionalInteger(forKey: "selectedResultID"),
            scrollOffset: coder.decodeDouble(forKey: "scrollOffset"), lastRefreshed: lastRefreshed,
            sessionID: sessionID)
    }
}

final class FiltersObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: SearchFilters
    init(_ value: SearchFilters) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.categories, forKey: "categories")
        if let priceRange = value.priceRange { coder.encode(PriceRangeObject(priceRange), forKey: "priceRange") }
        coder.encode(value.sort.rawValue, forKey: "sort")
        coder.encode(value.inStockOnly, forKey: "inStockOnly")
        coder.encodeIfPresent(value.minimumRating, forKey: "minimumRating")
    }

    init?(coder: NSCoder) {
        guard let categories = coder.strings(forKey: "categories"),
            let sort = coder.string(forKey: "sort").flatMap(SortOrder.init(rawValue:))
        else { return nil }
        var priceRange: PriceRange?
        if coder.containsValue(forKey: "priceRange") {
            guard let object = coder.decodeObject(of: PriceRangeObject.self, forKey: "priceRange") else { return nil }
            priceRange = object.value
        }
        value = SearchFilters(
            categories: categories, priceRange: priceRange, sort: sort,
            inStockOnly: coder.decodeBool(forKey: "inStockOnly"),
            minimumRating: coder.optionalDouble(forKey: "minimumRating"))
    }
}

final class PriceRangeObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: PriceRange
    init(_ value: PriceRange) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.lower, forKey: "lower")
        coder.encode(value.upper, forKey: "upper")
    }

    init?(coder: NSCoder) {
        value = PriceRange(lower: coder.decodeDouble(forKey: "lower"), upper: coder.decodeDouble(forKey: "upper"))
    }
}

final class ProductObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: ProductState
    init(_ value: ProductState) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.productID, forKey: "productID")
        coder.encodeIfPresent(value.variantID, forKey: "variantID")
        coder.encode(value.quantity, forKey: "quantity")
        coder.encode(value.selectedImageIndex, forKey: "selectedImageIndex")
        coder.encode(value.viewedAt, forKey: "viewedAt")
        coder.encode(value.reviewsExpanded, forKey: "reviewsExpanded")
        coder.encode(value.relatedProductIDs, forKey: "relatedProductIDs")
        coder.encodeIfPresent(value.giftNote, forKey: "giftNote")
        switch value.availability {
        case .inStock(let count):
            coder.encode(0, forKey: "availability")
            coder.encode(count, forKey: "availabilityCount")
        case .backordered(let until):
            coder.encode(1, forKey: "availability")
            coder.encode(until, forKey: "availabilityUntil")
        case .discontinued:
            coder.encode(2, forKey: "availability")
        }
    }

    init?(coder: NSCoder) {
        guard let productID = coder.string(forKey: "productID"), let viewedAt = coder.date(forKey: "viewedAt"),
            let related = coder.strings(forKey: "relatedProductIDs")
        else { return nil }
        let availability: Availability
        switch coder.decodeInteger(forKey: "availability") {
        case 0:
            availability = .inStock(count: coder.decodeInteger(forKey: "availabilityCount"))
        case 1:
            guard let until = coder.date(forKey: "availabilityUntil") else { return nil }
            availability = .backordered(until: until)
        case 2:
            availability = .discontinued
        default:
            return nil
        }
        value = ProductState(
            productID: productID, variantID: coder.optionalString(forKey: "variantID"),
            quantity: coder.decodeInteger(forKey: "quantity"),
            selectedImageIndex: coder.decodeInteger(forKey: "selectedImageIndex"), viewedAt: viewedAt,
            reviewsExpanded: coder.decodeBool(forKey: "reviewsExpanded"), relatedProductIDs: related,
            giftNote: coder.optionalString(forKey: "giftNote"), availability: availability)
    }
}

final class DraftObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: DraftState
    init(_ value: DraftState) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.draftID, forKey: "draftID")
        coder.encode(value.recipients, forKey: "recipients")
        coder.encode(value.subject, forKey: "subject")
        coder.encode(value.body, forKey: "body")
        coder.encode(value.attachments.map(AttachmentObject.init), forKey: "attachments")
        coder.encode(value.cursorPosition, forKey: "cursorPosition")
        coder.encode(value.lastEdited, forKey: "lastEdited")
        switch value.mode {
        case .new:
            coder.encode(0, forKey: "mode")
        case .reply(let to):
            coder.encode(1, forKey: "mode")
            coder.encode(to, forKey: "modeMessage")
        case .forward(let original, let includeAttachments):
            coder.encode(2, forKey: "mode")
            coder.encode(original, forKey: "modeMessage")
            coder.encode(includeAttachments, forKey: "modeIncludeAttachments")
        }
    }

    init?(coder: NSCoder) {
        guard let draftID = coder.uuid(forKey: "draftID"), let recipients = coder.strings(forKey: "recipients"),
            let subject = coder.string(forKey: "subject"), let body = coder.string(forKey: "body"),
            let attachments = coder.objects(of: AttachmentObject.self, forKey: "attachments"),
            let lastEdited = coder.date(forKey: "lastEdited")
        else { return nil }
        let mode: DraftMode
        switch coder.decodeInteger(forKey: "mode") {
        case 0:
            mode = .new
        case 1:
            guard let message = coder.uuid(forKey: "modeMessage") else { return nil }
            mode = .reply(to: message)
        case 2:
            guard let message = coder.uuid(forKey: "modeMessage") else { return nil }
            mode = .forward(message, includeAttachments: coder.decodeBool(forKey: "modeIncludeAttachments"))
        default:
            return nil
        }
        value = DraftState(
            draftID: draftID, recipients: recipients, subject: subject, body: body,
            attachments: attachments.map(\.value), cursorPosition: coder.decodeInteger(forKey: "cursorPosition"),
            lastEdited: lastEdited, mode: mode)
    }
}

final class AttachmentObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: Attachment
    init(_ value: Attachment) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.id, forKey: "id")
        coder.encode(value.fileName, forKey: "fileName")
        coder.encode(value.byteCount, forKey: "byteCount")
    }

    init?(coder: NSCoder) {
        guard let id = coder.uuid(forKey: "id"), let fileName = coder.string(forKey: "fileName") else { return nil }
        value = Attachment(id: id, fileName: fileName, byteCount: coder.decodeInteger(forKey: "byteCount"))
    }
}

final class RouteObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: RouteState
    init(_ value: RouteState) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.routeID, forKey: "routeID")
        coder.encode(PlaceObject(value.origin), forKey: "origin")
        coder.encode(PlaceObject(value.destination), forKey: "destination")
        coder.encode(value.waypoints.map(CoordinateObject.init), forKey: "waypoints")
        switch value.transport {
        case .walking:
            coder.encode(0, forKey: "transport")
        case .driving(let avoidTolls):
            coder.encode(1, forKey: "transport")
            coder.encode(avoidTolls, forKey: "transportAvoidTolls")
        case .transit(let line, let transfers):
            coder.encode(2, forKey: "transport")
            coder.encode(line, forKey: "transportLine")
            coder.encode(transfers, forKey: "transportTransfers")
        }
        coder.encodeIfPresent(value.selectedStep, forKey: "selectedStep")
        coder.encode(value.zoom, forKey: "zoom")
        coder.encode(value.distanceMeters, forKey: "distanceMeters")
        if let departure = value.departure { coder.encode(departure, forKey: "departure") }
    }

    init?(coder: NSCoder) {
        guard let routeID = coder.uuid(forKey: "routeID"),
            let origin = coder.decodeObject(of: PlaceObject.self, forKey: "origin"),
            let destination = coder.decodeObject(of: PlaceObject.self, forKey: "destination"),
            let waypoints = coder.objects(of: CoordinateObject.self, forKey: "waypoints")
        else { return nil }
        let transport: Transport
        switch coder.decodeInteger(forKey: "transport") {
        case 0:
            transport = .walking
        case 1:
            transport = .driving(avoidTolls: coder.decodeBool(forKey: "transportAvoidTolls"))
        case 2:
            guard let line = coder.string(forKey: "transportLine") else { return nil }
            transport = .transit(line: line, transfers: coder.decodeInteger(forKey: "transportTransfers"))
        default:
            return nil
        }
        value = RouteState(
            routeID: routeID, origin: origin.value, destination: destination.value, waypoints: waypoints.map(\.value),
            transport: transport, selectedStep: coder.optionalInteger(forKey: "selectedStep"),
            zoom: coder.decodeDouble(forKey: "zoom"), distanceMeters: coder.decodeInteger(forKey: "distanceMeters"),
            departure: coder.optionalDate(forKey: "departure"))
    }
}

final class PlaceObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: Place
    init(_ value: Place) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.name, forKey: "name")
        coder.encode(CoordinateObject(value.coordinate), forKey: "coordinate")
    }

    init?(coder: NSCoder) {
        guard let name = coder.string(forKey: "name"),
            let coordinate = coder.decodeObject(of: CoordinateObject.self, forKey: "coordinate")
        else { return nil }
        value = Place(name: name, coordinate: coordinate.value)
    }
}

final class CoordinateObject: NSObject, NSSecureCoding {
    static var supportsSecureCoding: Bool { true }
    let value: Coordinate
    init(_ value: Coordinate) { self.value = value }

    func encode(with coder: NSCoder) {
        coder.encode(value.latitude, forKey: "latitude")
        coder.encode(value.longitude, forKey: "longitude")
    }

    init?(coder: NSCoder) {
        value = Coordinate(
            latitude: coder.decodeDouble(forKey: "latitude"), longitude: coder.decodeDouble(forKey: "longitude"))
    }
}
