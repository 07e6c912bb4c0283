package import Foundation

/// The body of a restoration archive, encoded with ``ArchiveEncoder`` and sealed
/// in the archive envelope (magic, format version, length, checksum).
///
/// Each screen's state is encoded on its own into ``ArchivedNode/state``, so a
/// state that no longer decodes costs only that screen and its subtree. The
/// whole body is self-describing: a tool prints it without the app's types.
package struct RestorationArchive: Codable, Sendable {
    /// The envelope format version this build writes and reads.
    package static let formatVersion: UInt16 = 1

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
    /// The registered shared objects, restored before any screen.
    package var objects: [ArchivedObject]?
    /// Whether the app asked not to show the saved snapshot at the next launch.
    package var ignoresSnapshot: Bool?

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

/// One saved node of the hierarchy.
package struct ArchivedNode: Codable, Sendable, Equatable {
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

    /// Folds over this node and every node under it, in tree order.
    package func reduce<T>(_ initial: T, _ combine: (T, ArchivedNode) -> T) -> T {
        var result = combine(initial, self)
        for child in (children ?? []) + (presented ?? []) { result = child.reduce(result, combine) }
        return result
    }
}
