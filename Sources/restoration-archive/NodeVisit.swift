import StateRestoration

/// One node of a saved hierarchy, with where it sits: its identifier path, depth, and
/// how it hangs from its parent.
struct NodeVisit {
    /// The node.
    let node: ArchivedNode
    /// The identifier path, components joined with `/`, such as `tabs/browse/product#2`.
    let path: String
    /// 0 for the root.
    let depth: Int
    /// Whether the node is presented over its parent rather than its child.
    let isPresented: Bool
    /// Whether the node is the selected tab of its parent.
    let isSelected: Bool

    /// Every node from `root` down, in tree order: a node, its children, then what it presents.
    static func all(from root: ArchivedNode?) -> [NodeVisit] {
        var visits: [NodeVisit] = []
        if let root { visit(root, parent: nil, depth: 0, presented: false, selected: false, into: &visits) }
        return visits
    }

    private static func visit(
        _ node: ArchivedNode, parent: String?, depth: Int, presented: Bool, selected: Bool,
        into visits: inout [NodeVisit]
    ) {
        let path = parent.map { "\($0)/\(node.id)" } ?? node.id
        visits.append(NodeVisit(node: node, path: path, depth: depth, isPresented: presented, isSelected: selected))
        for child in node.children ?? [] {
            let isSelected = node.kind == .tabs && node.selected == child.id
            visit(child, parent: path, depth: depth + 1, presented: false, selected: isSelected, into: &visits)
        }
        for child in node.presented ?? [] {
            visit(child, parent: path, depth: depth + 1, presented: true, selected: false, into: &visits)
        }
    }
}
