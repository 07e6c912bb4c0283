import Foundation

// The floor: a writer and a reader for exactly these types, with no Codable in
// between. Little-endian fixed-width numbers, LEB128 varints (zigzag for signed
// integers), varint-prefixed UTF-8 strings, a presence byte before optionals and
// a case byte before enums. The reader bounds-checks every read and validates
// UTF-8, as a real reader of untrusted files must.

extension Codec {
    /// The hand-written writer and reader.
    static func handWritten() -> Codec {
        Codec(
            name: "Hand-written",
            encode: { tree in
                var writer = BinaryWriter()
                tree.write(to: &writer)
                return writer.data
            },
            decode: { data in
                try data.withUnsafeBytes { buffer in
                    var reader = BinaryReader(buffer)
                    let tree = try StateTree(from: &reader)
                    guard reader.isAtEnd else { throw BinaryReader.Failure(offset: reader.offset, "trailing bytes") }
                    return tree
                }
            })
    }
}

struct BinaryWriter {
    private(set) var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(1024) }

    var data: Data { Data(bytes) }

    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func int(_ value: Int) {
        varint(UInt64(bitPattern: Int64((value << 1) ^ (value >> (Int.bitWidth - 1)))))
    }

    mutating func count(_ value: Int) { varint(UInt64(value)) }

    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func double(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func uuid(_ value: UUID) {
        withUnsafeBytes(of: value.uuid) { bytes.append(contentsOf: $0) }
    }

    mutating func date(_ value: Date) { double(value.timeIntervalSinceReferenceDate) }

    mutating func optional<T>(_ value: T?, _ write: (inout BinaryWriter, T) -> Void) {
        if let value {
            bytes.append(1)
            write(&self, value)
        } else {
            bytes.append(0)
        }
    }

    mutating func array<T>(_ values: [T], _ write: (inout BinaryWriter, T) -> Void) {
        count(values.count)
        for value in values { write(&self, value) }
    }

    mutating func coordinate(_ value: Coordinate) {
        double(value.latitude)
        double(value.longitude)
    }
}

struct BinaryReader {
    struct Failure: Error, CustomStringConvertible {
        var offset: Int
        var message: String
        init(offset: Int, _ message: String) {
            self.offset = offset
            self.message = message
        }
        var description: String { "hand-written reader: \(message) at byte \(offset)" }
    }

    private let buffer: UnsafeRawBufferPointer
    private(set) var offset = 0

    init(_ buffer: UnsafeRawBufferPointer) { self.buffer = buffer }

    var isAtEnd: Bool { offset == buffer.count }

    private mutating func take(_ size: Int) throws(Failure) -> UnsafeRawBufferPointer {
        guard size >= 0, buffer.count - offset >= size else { throw Failure(offset: offset, "truncated") }
        defer { offset += size }
        return UnsafeRawBufferPointer(rebasing: buffer[offset..<(offset + size)])
    }

    mutating func byte() throws(Failure) -> UInt8 {
        guard offset < buffer.count else { throw Failure(offset: offset, "truncated") }
        defer { offset += 1 }
        return buffer[offset]
    }

    mutating func varint() throws(Failure) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw Failure(offset: offset, "varint too long") }
            result |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return result }
            shift += 7
        }
    }

    mutating func int() throws(Failure) -> Int {
        let raw = try varint()
        return Int(truncatingIfNeeded: Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
    }

    mutating func count() throws(Failure) -> Int {
        let raw = try varint()
        guard raw <= UInt64(buffer.count - offset) else { throw Failure(offset: offset, "count \(raw) too large") }
        return Int(raw)
    }

    mutating func bool() throws(Failure) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Failure(offset: offset - 1, "bad boolean")
        }
    }

    mutating func double() throws(Failure) -> Double {
        let raw = try take(8)
        return Double(bitPattern: UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self)))
    }

    mutating func string() throws(Failure) -> String {
        let raw = try take(count())
        guard let string = String(validating: raw, as: UTF8.self) else {
            throw Failure(offset: offset - raw.count, "invalid UTF-8")
        }
        return string
    }

    mutating func uuid() throws(Failure) -> UUID {
        UUID(uuid: try take(16).loadUnaligned(as: uuid_t.self))
    }

    mutating func date() throws(Failure) -> Date { Date(timeIntervalSinceReferenceDate: try double()) }

    mutating func coordinate() throws(Failure) -> Coordinate {
        Coordinate(latitude: try double(), longitude: try double())
    }

    mutating func optional<T>(_ read: (inout BinaryReader) throws(Failure) -> T) throws(Failure) -> T? {
        try bool() ? try read(&self) : nil
    }

    mutating func array<T>(_ read: (inout BinaryReader) throws(Failure) -> T) throws(Failure) -> [T] {
        let count = try count()
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }

    mutating func caseTag(below limit: UInt8) throws(Failure) -> UInt8 {
        let tag = try byte()
        guard tag < limit else { throw Failure(offset: offset - 1, "unknown case \(tag)") }
        return tag
    }
}

// MARK: The model's writers and readers

typealias ReadFailure = BinaryReader.Failure

extension StateTree {
    func write(to writer: inout BinaryWriter) {
        writer.array(tabs) { $1.write(to: &$0) }
        writer.string(selectedTab)
    }

    init(from reader: inout BinaryReader) throws(ReadFailure) {
        tabs = try reader.array { (reader) throws(ReadFailure) in try Tab(from: &reader) }
        selectedTab = try reader.string()
    }
}

extension Tab {
    func write(to writer: inout BinaryWriter) {
        writer.string(identifier)
        writer.string(title)
        writer.optional(badgeCount) { $0.int($1) }
        writer.array(screens) { $1.write(to: &$0) }
    }

    init(from reader: inout BinaryReader) throws(ReadFailure) {
        identifier = try reader.string()
        title = try reader.string()
        badgeCount = try reader.optional { (reader) throws(ReadFailure) in try reader.int() }
        screens = try reader.array { (reader) throws(ReadFailure) in try ScreenEntry(from: &reader) }
    }
}

extension ScreenEntry {
    func write(to writer: inout BinaryWriter) {
        writer.string(identifier)
        switch state {
        case .search(let search):
            writer.byte(0)
            search.write(to: &writer)
        case .product(let product):
            writer.byte(1)
            product.write(to: &writer)
        case .draft(let draft):
            writer.byte(2)
            draft.write(to: &writer)
        case .route(let route):
            writer.byte(3)
            route.write(to: &writer)
        }
    }

    init(from reader: inout BinaryReader) throws(ReadFailure) {
        identifier = try reader.string()
        switch try reader.caseTag(below: 4) {
        case 0: state = .search(try SearchState(from: &reader))
        case 1: state = .product(try ProductState(from: &reader))
        case 2: state = .draft(try DraftState(from: &reader))
        default: state = .route(try RouteState(from: &reader))
        }
    }
}

extension SortOrder {
    var tag: UInt8 {
        switch self {
        case .relevance: 0
        case .priceAscending: 1
        case .priceDescending: 2
        case .newest: 3
        case .rating: 4
        }
    }
}

extension SearchState {
    func write(to writer: inout BinaryWriter) {
        writer.string(query)
        writer.array(filters.categories) { $0.string($1) }
        writer.optional(filters.priceRange) {
            $0.double($1.lower)
            $0.double($1.upper)
        }
        writer.byte(filters.sort.tag)
        writer.bool(filters.inStockOnly)
        writer.optional(filters.minimumRating) { $0.double($1) }
        writer.array(resultIDs) { $0.int($1) }
        writer.optional(selectedResultID) { $0.int($1) }
        writer.double(scrollOffset)
        writer.date(lastRefreshed)
        writer.uuid(sessionID)
    }

    init(from reader: inout BinaryReader) throws(ReadFailure) {
        query = try reader.string()
        let categories = try reader.array { (reader) throws(ReadFailure) in try reader.string() }
        let priceRange = try reader.optional { (reader) throws(ReadFailure) in
            PriceRange(lower: try reader.double(), upper: try reader.double())
        }
        let sort = SortOrder.allCases[Int(try reader.caseTag(below: UInt8(SortOrder.allCases.count)))]
        filters = SearchFilters(
            categories: categories, priceRange: priceRange, sort: sort, inStockOnly: try reader.bool(),
            minimumRating: try reader.optional { (reader) throws(ReadFailure) in try reader.double() })
        resultIDs = try reader.array { (reader) throws(ReadFailure) in try reader.int() }
        selectedResultID = try reader.optional { (reader) throws(ReadFailure) in try reader.int() }
        scrollOffset = try reader.double()
        lastRefreshed = try reader.date()
        sessionID = try reader.uuid()
    }
}

extension ProductState {
    func write(to writer: inout BinaryWriter) {
        writer.string(productID)
        writer.optional(variantID) { $0.string($1) }
        writer.int(quantity)
        writer.int(selectedImageIndex)
        writer.date(viewedAt)
        writer.bool(reviewsExpanded)
        writer.array(relatedProductIDs) { $0.string($1) }
        writer.optional(giftNote) { $0.string($1) }
        switch availability {
        case .inStock(let count):
            writer.byte(0)
            writer.int(count)
        case .backordered(let until):
            writer.byte(1)
            writer.date(until)
        case .discontinued:
            writer.byte(2)
        }
    }

    init(from reader: inout BinaryReader) throws(ReadFailure) {
        productID = try reader.string()
        variantID = try reader.optional { (reader) throws(ReadFailure) in try reader.string() }
        quantity = try reader.int()
        selectedImageIndex = try reader.int()
        viewedAt = try reader.date()
        reviewsExpanded = try reader.bool()
        relatedProductIDs = try reader.array { (reader) throws(ReadFailure) in try reader.string() }
        giftNote = try reader.optional { (reader) throws(ReadFailure) in try reader.string() }
        switch try reader.caseTag(below: 3) {
        case 0: availability = .inStock(count: try reader.int())
        case 1: availability = .backordered(until: try reader.date())
        default: availability = .discontinued
        }
    }
}

extension DraftState {
    func write(to writer: inout BinaryWriter) {
        writer.uuid(draftID)
        writer.array(recipients) { $0.string($1) }
        writer.string(subject)
        writer.string(body)
        writer.array(attachments) {
            $0.uuid($1.id)
            $0.string($1.fileName)
            $0.int($1.byteCount)
        }
        writer.int(cursorPosition)
        writer.date(lastEdited)
        switch mode {
        case .new:
            writer.byte(0)
        case .reply(let to):
            writer.byte(1)
            writer.uuid(to)
        case .forward(let original, let includeAttachments):
            writer.byte(2)
            writer.uuid(original)
            writer.bool(includeAttachments)
        }
    }

    init(from reader: inout BinaryReader) throws(ReadFailure) {
        draftID = try reader.uuid()
        recipients = try reader.array { (reader) throws(ReadFailure) in try reader.string() }
        subject = try reader.string()
        body = try reader.string()
        attachments = try reader.array { (reader) throws(ReadFailure) in
            Attachment(id: try reader.uuid(), fileName: try reader.string(), byteCount: try reader.int())
        }
        cursorPosition = try reader.int()
        lastEdited = try reader.date()
        switch try reader.caseTag(below: 3) {
        case 0: mode = .new
        case 1: mode = .reply(to: try reader.uuid())
        default: mode = .forward(try reader.uuid(), includeAttachments: try reader.bool())
        }
    }
}

extension RouteState {
    func write(to writer: inout BinaryWriter) {
        writer.uuid(routeID)
        writer.string(origin.name)
        writer.coordinate(origin.coordinate)
        writer.string(destination.name)
        writer.coordinate(destination.coordinate)
        writer.array(waypoints) { $0.coordinate($1) }
        switch transport {
        case .walking:
            writer.byte(0)
        case .driving(let avoidTolls):
            writer.byte(1)
            writer.bool(avoidTolls)
        case .transit(let line, let transfers):
            writer.byte(2)
            writer.string(line)
            writer.int(transfers)
        }
        writer.optional(selectedStep) { $0.int($1) }
        writer.double(zoom)
        writer.int(distanceMeters)
        writer.optional(departure) { $0.date($1) }
    }

    init(from reader: inout BinaryReader) throws(ReadFailure) {
        routeID = try reader.uuid()
        origin = Place(name: try reader.string(), coordinate: try reader.coordinate())
        destination = Place(name: try reader.string(), coordinate: try reader.coordinate())
        waypoints = try reader.array { (reader) throws(ReadFailure) in try reader.coordinate() }
        switch try reader.caseTag(below: 3) {
        case 0: transport = .walking
        case 1: transport = .driving(avoidTolls: try reader.bool())
        default: transport = .transit(line: try reader.string(), transfers: try reader.int())
        }
        selectedStep = try reader.optional { (reader) throws(ReadFailure) in try reader.int() }
        zoom = try reader.double()
        distanceMeters = try reader.int()
        departure = try reader.optional { (reader) throws(ReadFailure) in try reader.date() }
    }
}
