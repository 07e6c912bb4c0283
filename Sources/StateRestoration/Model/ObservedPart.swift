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
    ///
    /// The trees are walked side by side while their nodes keep their places (an
    /// edit, a tab selected, screens pushed or popped at the end); a subtree whose
    /// children moved is compared by identity.
    static func changes(from old: ScreenTree, to new: ScreenTree) -> [ObservedPart] {
        var parts: [ObservedPart] = []
        compare(old.root, new.root, into: &parts)
        return parts
    }

    /// Compares two nodes, and what is under them.
    private static func compare(_ old: ScreenNode, _ new: ScreenNode, into parts: inout [ObservedPart]) {
        guard old.id == new.id else {
            compareByIdentity(old, new, into: &parts)
            return
        }
        appendChangedAspects(from: old, to: new, into: &parts)
        // Identities are read in place: copying the nodes would copy their screens.
        var kept = 0
        while kept < old.children.count, kept < new.children.count, old.children[kept].id == new.children[kept].id {
            kept += 1
        }
        // Children kept in place are compared in place; the rest by identity.
        for index in 0..<kept { compare(old.children[index], new.children[index], into: &parts) }
        if kept < old.children.count || kept < new.children.count {
            var before: [ScreenNode.ID: ScreenNode] = [:]
            for child in old.children[kept...] { child.forEachNodeValue { before[$0.id] = $0 } }
            for child in new.children[kept...] { matchByIdentity(child, &before, into: &parts) }
            removed(before.keys, into: &parts)
        }
        switch (old.presented, new.presented) {
        case (let left?, let right?): compare(left, right, into: &parts)
        case (let left?, nil): left.forEachNodeValue { removed([$0.id], into: &parts) }
        default: break
        }
    }

    /// Compares two subtrees whose nodes may have moved, by identity.
    private static func compareByIdentity(_ old: ScreenNode, _ new: ScreenNode, into parts: inout [ObservedPart]) {
        var before: [ScreenNode.ID: ScreenNode] = [:]
        old.forEachNodeValue { before[$0.id] = $0 }
        matchByIdentity(new, &before, into: &parts)
        removed(before.keys, into: &parts)
    }

    /// Compares each node of `new` found in `before` with its old self (and takes it
    /// out of `before`), what is under it included.
    private static func matchByIdentity(
        _ new: ScreenNode, _ before: inout [ScreenNode.ID: ScreenNode], into parts: inout [ObservedPart]
    ) {
        new.forEachNodeValue { node in
            guard let previous = before.removeValue(forKey: node.id) else { return }
            appendChangedAspects(from: previous, to: node, into: &parts)
        }
    }

    /// The aspects of one node that differ between two of its versions: its screen
    /// (compared only when it was set since), its children's and presented node's
    /// identities, its selection.
    private static func appendChangedAspects(
        from old: ScreenNode, to new: ScreenNode, into parts: inout [ObservedPart]
    ) {
        if old.screenRevision != new.screenRevision, !sameScreen(old.screen, new.screen) {
            parts.append(ObservedPart(node: new.id, aspect: .screen))
        }
        // Identities are read in place: copying the nodes would copy their screens.
        let sameChildren =
            old.children.count == new.children.count
            && old.children.indices.allSatisfy { old.children[$0].id == new.children[$0].id }
        if !sameChildren || old.presentedStorage.map(\.id) != new.presentedStorage.map(\.id) {
            parts.append(ObservedPart(node: new.id, aspect: .children))
        }
        if old.selectedIndex != new.selectedIndex { parts.append(ObservedPart(node: new.id, aspect: .selection)) }
    }

    /// Every aspect of nodes that left the tree.
    private static func removed(_ ids: some Sequence<ScreenNode.ID>, into parts: inout [ObservedPart]) {
        for id in ids { parts += [.screen, .children, .selection].map { ObservedPart(node: id, aspect: $0) } }
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
