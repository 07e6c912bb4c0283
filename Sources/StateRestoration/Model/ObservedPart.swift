/// A part of one node that a projection shows, observed on its own: a change of
/// the tree tells only the observers of the parts it changed.
struct ObservedPart: Hashable, Sendable {
    /// What of the node is observed.
    enum Aspect: Hashable, Sendable {
        /// The node's screen and its state.
        case screen
        /// Which nodes are its children, in order, and which node is presented over it.
        case children
        /// Which tab is selected.
        case selection
    }

    var node: ScreenNode.ID
    var aspect: Aspect

    /// The parts that differ between two trees: for each node in both, the aspects
    /// that changed; for each node only in `old`, all of them (whoever showed it
    /// learns it is gone). Nodes only in `new` have no observers yet.
    static func changes(from old: ScreenTree, to new: ScreenTree) -> [ObservedPart] {
        var before: [ScreenNode.ID: ScreenNode] = [:]
        old.root.forEachNodeValue { before[$0.id] = $0 }
        var parts: [ObservedPart] = []
        new.root.forEachNodeValue { node in
            guard let previous = before.removeValue(forKey: node.id) else { return }
            if !sameScreen(previous.screen, node.screen) { parts.append(ObservedPart(node: node.id, aspect: .screen)) }
            if previous.children.map(\.id) != node.children.map(\.id) || previous.presented?.id != node.presented?.id {
                parts.append(ObservedPart(node: node.id, aspect: .children))
            }
            if previous.selectedIndex != node.selectedIndex {
                parts.append(ObservedPart(node: node.id, aspect: .selection))
            }
        }
        for id in before.keys {
            parts += [.screen, .children, .selection].map { ObservedPart(node: id, aspect: $0) }
        }
        return parts
    }

    private static func sameScreen(_ lhs: (any RestorableScreen)?, _ rhs: (any RestorableScreen)?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case (let left?, let right?): left.isEqual(to: right)
        default: false
        }
    }
}

extension ScreenNode {
    /// Calls `body` with this node and every node under it, in tree order, without
    /// changing them.
    func forEachNodeValue(_ body: (ScreenNode) -> Void) {
        body(self)
        for child in children { child.forEachNodeValue(body) }
        for presented in presentedStorage { presented.forEachNodeValue(body) }
    }
}
