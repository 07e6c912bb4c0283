package import Foundation

/// The body of a restoration archive, encoded with ``ArchiveEncoder`` and sealed
/// in the archive envelope (magic, format version, length, checksum).
///
/// Each screen's state is encoded on its own into ``ArchivedNode/state``, so a
/// state that no longer decodes costs only that screen and its subtree. Each node
/// of the hierarchy is encoded on its own too (``ArchivedNodeRecord``), its
/// children held as their encodings: a save reuses the bytes of every subtree
/// that did not change. The whole body is self-describing: a tool prints it
/// without the app's types.
package struct RestorationArchive: Codable, Sendable {
    /// The envelope format version this build writes and reads.
    package static let formatVersion: UInt16 = 1

    /// Save dates a real archive can have, in seconds since 1970: up to the year
    /// 9999. Any other date is damage, and would overflow the arithmetic of ages.
    package static let plausibleSaveDates: ClosedRange<Double> = 0...253_402_300_799

    /// The app version the coordinator was configured with.
    package var appVersion: String?
    /// When the archive was saved.
    package var savedAt: Date
    /// The delegate's values.
    package var metadata: RestorationMetadata
    /// The app-wide state, encoded on its own.
    package var appState: Data?
    /// The hierarchy; nil when the root has no identifier.
    package var root: ArchivedNode?
    /// The root's encoding, when a save already made it; written instead of `root`.
    package var encodedRoot: Data?
    /// The registered shared objects, restored before any screen.
    package var objects: [ArchivedObject]?
    /// Whether the app asked not to show the saved snapshot at the next launch.
    package var ignoresSnapshot: Bool?

    package init(
        appVersion: String?, savedAt: Date, metadata: RestorationMetadata, appState: Data? = nil,
        root: ArchivedNode? = nil, encodedRoot: Data? = nil, objects: [ArchivedObject]? = nil,
        ignoresSnapshot: Bool? = nil
    ) {
        self.appVersion = appVersion
        self.savedAt = savedAt
        self.metadata = metadata
        self.appState = appState
        self.root = root
        self.encodedRoot = encodedRoot
        self.objects = objects
        self.ignoresSnapshot = ignoresSnapshot
    }

    private enum CodingKeys: String, CodingKey {
        case appVersion, savedAt, metadata, appState, root, objects, ignoresSnapshot
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        appVersion = try container.decodeIfPresent(String.self, forKey: .appVersion)
        savedAt = try container.decode(Date.self, forKey: .savedAt)
        metadata = try container.decode(RestorationMetadata.self, forKey: .metadata)
        appState = try container.decodeIfPresent(Data.self, forKey: .appState)
        objects = try container.decodeIfPresent([ArchivedObject].self, forKey: .objects)
        ignoresSnapshot = try container.decodeIfPresent(Bool.self, forKey: .ignoresSnapshot)
        // The decoded tree is what the archive holds from here on; a change to it
        // is what gets encoded again.
        encodedRoot = nil
        do {
            root = try container.decodeIfPresent(Data.self, forKey: .root).map {
                try ArchivedNode(decoding: $0, depth: 1)
            }
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [CodingKeys.root], debugDescription: "the hierarchy does not decode: \(error)",
                    underlyingError: error))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(appVersion, forKey: .appVersion)
        try container.encode(savedAt, forKey: .savedAt)
        try container.encode(metadata, forKey: .metadata)
        try container.encodeIfPresent(appState, forKey: .appState)
        try container.encodeIfPresent(try encodedRoot ?? root?.encoded(), forKey: .root)
        try container.encodeIfPresent(objects, forKey: .objects)
        try container.encodeIfPresent(ignoresSnapshot, forKey: .ignoresSnapshot)
    }

    /// How many screens and containers the archive holds.
    package var screenCount: Int {
        root?.reduce(0) { count, node in count + (node.type == nil ? 0 : 1) } ?? 0
    }
}

/// One saved shared object.
package struct ArchivedObject: Codable, Sendable, Equatable {
    /// The identifier it was registered under.
    package var id: String
    /// The object type's key.
    package var type: ScreenTypeKey
    /// Its State, encoded on its own.
    package var state: Data
}

/// One saved node of the hierarchy, with its subtree decoded.
package struct ArchivedNode: Sendable, Equatable {
    /// How deep nodes may nest: far beyond any real app, and a bound against
    /// hostile archives, whose nested encodings are decoded one by one.
    package static let maximumDepth = 100

    /// The node's path component (with the position for a stack's child).
    package var id: String
    /// What the node is.
    package var kind: DeclarationNode.Kind
    /// The screen type's key, for screens and containers.
    package var type: ScreenTypeKey?
    /// The State version the screen was saved with.
    package var version: Int?
    /// The screen's State, encoded on its own.
    package var state: Data?
    /// The identifier of the selected tab, for tabs.
    package var selected: String?
    /// The children, in order.
    package var children: [ArchivedNode]?
    /// The node presented over this one (zero or one element).
    package var presented: [ArchivedNode]?

    package init(
        id: String, kind: DeclarationNode.Kind, type: ScreenTypeKey? = nil, version: Int? = nil, state: Data? = nil,
        selected: String? = nil, children: [ArchivedNode]? = nil, presented: [ArchivedNode]? = nil
    ) {
        self.id = id
        self.kind = kind
        self.type = type
        self.version = version
        self.state = state
        self.selected = selected
        self.children = children
        self.presented = presented
    }

    /// Decodes a node's encoding and, recursively, its children's.
    package init(decoding data: Data, depth: Int) throws {
        try self.init(record: Self.record(data, depth: depth), depth: depth)
    }

    private init(record: ArchivedNodeRecord, depth: Int) throws {
        var record = record
        self.init(
            id: record.id, kind: record.kind, type: record.type, version: record.version, state: record.state,
            selected: record.selected)
        children = try Self.nodes(taking: &record.children, depth: depth + 1)
        presented = try Self.nodes(taking: &record.presented, depth: depth + 1)
    }

    private static func record(_ data: Data, depth: Int) throws -> ArchivedNodeRecord {
        guard depth <= maximumDepth else {
            throw ArchiveError(.depthLimitExceeded, "the hierarchy nests deeper than \(maximumDepth) levels")
        }
        return try ArchiveDecoder().decode(ArchivedNodeRecord.self, from: data)
    }

    /// Decodes nested encodings one by one, letting go of each as soon as its own
    /// record is read: a deep chain's bytes (each level's encoding holds all the
    /// levels under it) are then held about once, not once per level.
    private static func nodes(taking encodings: inout [Data]?, depth: Int) throws -> [ArchivedNode]? {
        guard var remaining = encodings else { return nil }
        encodings = nil
        var nodes: [ArchivedNode] = []
        nodes.reserveCapacity(remaining.count)
        for index in remaining.indices {
            let record = try record(remaining[index], depth: depth)
            remaining[index] = Data()
            nodes.append(try ArchivedNode(record: record, depth: depth))
        }
        return nodes
    }

    /// The node's encoding, its children encoded on their own.
    package func encoded() throws -> Data {
        var record = ArchivedNodeRecord(
            id: id, kind: kind, type: type, version: version, state: state, selected: selected)
        record.children = try children.map { try $0.map { try $0.encoded() } }
        record.presented = try presented.map { try $0.map { try $0.encoded() } }
        return try ArchiveEncoder().encode(record)
    }

    /// Folds over this node and every node under it, in tree order.
    package func reduce<T>(_ initial: T, _ combine: (T, ArchivedNode) -> T) -> T {
        var result = combine(initial, self)
        for child in (children ?? []) + (presented ?? []) { result = child.reduce(result, combine) }
        return result
    }
}

/// How one node is written: its own fields, and its children as their own
/// encodings, so an unchanged subtree's bytes are reused as they are.
package struct ArchivedNodeRecord: Codable, Sendable, Equatable {
    package var id: String
    package var kind: DeclarationNode.Kind
    package var type: ScreenTypeKey?
    package var version: Int?
    package var state: Data?
    package var selected: String?
    package var children: [Data]?
    package var presented: [Data]?

    package init(
        id: String, kind: DeclarationNode.Kind, type: ScreenTypeKey? = nil, version: Int? = nil, state: Data? = nil,
        selected: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.type = type
        self.version = version
        self.state = state
        self.selected = selected
    }
}
