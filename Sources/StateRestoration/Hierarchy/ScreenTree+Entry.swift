extension ScreenTree {
    /// A node of the tree with where it is: what ``ScreenTree/nodes`` lists.
    public struct Entry: Sendable, Equatable, Identifiable {
        /// The node, with everything under it.
        public var node: ScreenNode
        /// The node's identifier path from the root, which a ``NodeReference`` takes;
        /// nil when the node or an ancestor has no identifier, so the node is never
        /// saved. A node with a path may still be left out of a save (above an
        /// unidentified screen on a stack, or a container child its container does
        /// not preserve): ``ScreenTree/restorablePaths`` lists what a save writes.
        public var path: IdentifierPath?
        /// The path for messages and for references to unidentified nodes: as
        /// ``path``, with nodes without identifier named by type key or kind in angle
        /// brackets (`tabs/<scratch>`).
        public var displayPath: IdentifierPath

        /// The node's identity.
        public var id: ScreenNode.ID { node.id }
    }

    /// Every node of the tree in tree order: a node, its children in order, then the
    /// node presented over it.
    ///
    /// A UI layer maps identities to paths with it, or finds a node by identity:
    ///
    /// ```swift
    /// for entry in tree.nodes {
    ///     print(entry.id, entry.displayPath, entry.path.map { "\($0)" } ?? "not saved")
    /// }
    /// // node-1 tabs tabs
    /// // node-2 tabs/browse tabs/browse
    /// // node-3 tabs/browse/search#0 tabs/browse/search#0
    /// // …
    /// // node-9 tabs/<scratch> not saved
    /// ```
    public var nodes: [Entry] {
        var entries: [Entry] = []
        walk { visit in entries.append(Entry(node: visit.node, path: visit.path, displayPath: visit.displayPath)) }
        return entries
    }
}
