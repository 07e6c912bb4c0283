import Synchronization

/// One node of the live hierarchy: a screen, a navigation stack, tabs or a custom
/// container, with its children and the node presented over it.
///
/// Nodes are values; the app changes them through ``ScreenTree``'s operations
/// (push, pop, select a tab, present, dismiss), which keep them consistent with
/// the declaration.
///
/// Each node has an identity (``id``) that stays while it is in the tree, whatever
/// its state becomes: editing a screen's state keeps it, and a screen pushed at a
/// position another screen held before is a new node with a new identity.
public struct ScreenNode: Sendable, Equatable, Identifiable {
    /// The node's identity: made when the node is made (restored, initial, pushed,
    /// presented or added) and kept by every copy and every change of its state.
    /// Not part of equality.
    public internal(set) var id: ID

    /// The declared restoration identifier; nil means the node and everything
    /// under it are not saved.
    public internal(set) var identifier: String?

    /// What kind of node this is.
    public var kind: DeclarationNode.Kind { declaration.kind }

    /// The screen of a screen or container node; nil for stacks and tabs.
    public internal(set) var screen: (any RestorableScreen)? {
        didSet { screenRevision &+= 1 }
    }

    /// How many times ``screen`` was set: two copies of a node with the same
    /// revision hold the same screen, which an observer of a tree's changes then
    /// need not compare state by state. Not part of equality.
    private(set) var screenRevision: UInt64 = 0

    /// A stack's screens (root first), the tabs, or a container's children.
    public internal(set) var children: [ScreenNode]

    /// The index of the selected tab, for tabs.
    public internal(set) var selectedIndex: Int?

    /// Holds zero or one node: a struct cannot contain itself directly.
    var presentedStorage: [ScreenNode] = []

    /// The declaration the node was made from.
    let declaration: DeclarationNode

    /// Whether the launch that made this node restored its screen from an archive.
    /// Not part of equality.
    var wasRestored = false

    init(
        declaration: DeclarationNode, identifier: String?, screen: (any RestorableScreen)?,
        children: [ScreenNode] = [], selectedIndex: Int? = nil, id: ID = .make()
    ) {
        self.id = id
        self.declaration = declaration
        self.identifier = identifier
        self.screen = screen
        self.children = children
        self.selectedIndex = selectedIndex
    }

    /// The node presented modally over this one, if any.
    public internal(set) var presented: ScreenNode? {
        get { presentedStorage.first }
        set { presentedStorage = newValue.map { [$0] } ?? [] }
    }

    /// The selected tab, for tabs.
    public var selectedChild: ScreenNode? {
        guard let selectedIndex, children.indices.contains(selectedIndex) else { return nil }
        return children[selectedIndex]
    }

    /// Two nodes are equal when their identifiers, kinds, screens (type and
    /// state), children, selection and presented nodes are equal; their
    /// identities (``id``) are not compared.
    public static func == (lhs: ScreenNode, rhs: ScreenNode) -> Bool {
        guard lhs.identifier == rhs.identifier, lhs.kind == rhs.kind, lhs.selectedIndex == rhs.selectedIndex,
            lhs.children == rhs.children, lhs.presentedStorage == rhs.presentedStorage
        else { return false }
        switch (lhs.screen, rhs.screen) {
        case (nil, nil): return true
        case (let left?, let right?): return left.isEqual(to: right)
        default: return false
        }
    }

    /// The path component of child `index`: a stack appends the child's position.
    func component(ofChild index: Int) -> String? {
        Self.component(of: children[index].identifier, at: index, under: kind)
    }

    /// The path component of a child with `identifier` at `position` under a node of `kind`: a
    /// stack appends the child's position; nil for a child without identifier.
    static func component(of identifier: String?, at position: Int, under kind: DeclarationNode.Kind) -> String? {
        guard let identifier else { return nil }
        return kind == .stack ? PositionalIdentifier(base: identifier, position: position).component : identifier
    }

    /// How the node is named in a display path when it has no identifier.
    var displayName: String {
        if let identifier { return identifier }
        if let screen { return "<\(screen.typeKey)>" }
        return "<\(kind.rawValue)>"
    }
}

extension ScreenNode {
    /// A node's identity: unique among the nodes made in this process, in the order
    /// they were made.
    public struct ID: Hashable, Comparable, Sendable, CustomStringConvertible {
        let rawValue: UInt64

        /// The identity of the next node made.
        static func make() -> ID {
            ID(rawValue: counter.add(1, ordering: .relaxed).newValue)
        }

        private static let counter = Atomic<UInt64>(0)

        /// Whether `lhs` was made before `rhs`.
        public static func < (lhs: ID, rhs: ID) -> Bool { lhs.rawValue < rhs.rawValue }

        /// `node-<number>`.
        public var description: String { "node-\(rawValue)" }
    }
}

/// Where a node sits in a tree: the steps from the root.
enum NodeStep: Hashable, Sendable {
    case child(Int)
    case presented
}

extension ScreenNode {
    /// The steps from this node to the node with identity `id`, found without
    /// building any path; nil when it is not under this node.
    func address(of id: ID) -> [NodeStep]? {
        if self.id == id { return [] }
        for index in children.indices {
            if let rest = children[index].address(of: id) { return [.child(index)] + rest }
        }
        if let presented = presentedStorage.first, let rest = presented.address(of: id) {
            return [.presented] + rest
        }
        return nil
    }

    /// Calls `body` with the node at `address` under this one, for changing it.
    mutating func modify<R>(
        at address: ArraySlice<NodeStep>, _ body: (inout ScreenNode) throws(HierarchyError) -> R
    ) throws(HierarchyError) -> R {
        guard let step = address.first else { return try body(&self) }
        let rest = address.dropFirst()
        switch step {
        case .child(let index):
            return try children[index].modify(at: rest, body)
        case .presented:
            return try presentedStorage[0].modify(at: rest, body)
        }
    }
}
