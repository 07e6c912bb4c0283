import Foundation

/// What a ``SaveReport`` says of one saved node and everything under it: the paths and the
/// state sizes, nothing else (no bytes, no states), so that a report an app keeps holds no
/// archive.
///
/// Made once for each node a save encodes, by its ``HierarchyArchiver/Entry``, and shared by
/// every later save that reuses the entry: a save where one screen changed makes the nodes on
/// the way from that screen to the root, not one for each of the hierarchy's nodes, and its
/// report's lists are read off this tree only when an app asks for them.
final class SavedNode: Sendable {
    let path: IdentifierPath
    /// The size of the node's encoded state, if it is a screen.
    let stateSize: SaveReport.StateSize?
    /// The node's saved children, in order, then the node presented over it.
    let children: [SavedNode]
    /// How many nodes this one and those under it are.
    let nodeCount: Int
    /// How many of them have a state.
    let stateCount: Int
    /// The largest state's size in bytes among them, 0 if none has a state.
    let largestState: Int

    init(path: IdentifierPath, stateSize: SaveReport.StateSize?, children: [SavedNode]) {
        self.path = path
        self.stateSize = stateSize
        self.children = children
        var nodeCount = 1
        var stateCount = stateSize == nil ? 0 : 1
        var largestState = stateSize?.byteCount ?? 0
        for child in children {
            nodeCount += child.nodeCount
            stateCount += child.stateCount
            largestState = Swift.max(largestState, child.largestState)
        }
        self.nodeCount = nodeCount
        self.stateCount = stateCount
        self.largestState = largestState
    }

    /// Appends this node's path and state size, then its children's, in the order of a walk.
    /// (The recursion is as deep as the hierarchy, which a save bounds by
    /// ``ArchivedNode/maximumDepth``.)
    fileprivate func collect(paths: inout [IdentifierPath], sizes: inout [SaveReport.StateSize]) {
        paths.append(path)
        if let stateSize { sizes.append(stateSize) }
        for child in children { child.collect(paths: &paths, sizes: &sizes) }
    }
}

/// A save's hierarchy as its ``SaveReport`` holds it: the lists of paths and state sizes are
/// made the first time either is read, once for every copy of the report.
///
/// `@unchecked Sendable`: the lists, its one variable, are read and written under `lock`.
final class SavedHierarchy: @unchecked Sendable {
    let root: SavedNode
    private let lock = NSLock()
    private var lists: (paths: [IdentifierPath], sizes: [SaveReport.StateSize])?

    init(root: SavedNode) {
        self.root = root
    }

    /// The saved nodes' paths, in tree order.
    var paths: [IdentifierPath] { made().paths }

    /// The saved screens' state sizes, in tree order.
    var stateSizes: [SaveReport.StateSize] { made().sizes }

    private func made() -> (paths: [IdentifierPath], sizes: [SaveReport.StateSize]) {
        lock.lock()
        defer { lock.unlock() }
        if let lists { return lists }
        var paths: [IdentifierPath] = []
        var sizes: [SaveReport.StateSize] = []
        paths.reserveCapacity(root.nodeCount)
        sizes.reserveCapacity(root.stateCount)
        root.collect(paths: &paths, sizes: &sizes)
        lists = (paths, sizes)
        return (paths, sizes)
    }
}
