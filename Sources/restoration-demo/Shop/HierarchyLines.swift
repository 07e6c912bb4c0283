import StateRestoration

/// The hierarchy in a few short lines, one per node, indented by depth, each
/// screen with its ``ShopScreen/summary``: what the demo compares side by side.
///
/// ```text
/// tabs  selected: shop
///   shop  stack
///     search#0  "oat milk", organic only
///     product#2  p-2208, quantity 2
///       compose  "Is the carton recycl"
///   settings  currency USD
/// ```
enum HierarchyLines {
    static func lines(of tree: ScreenTree) -> [String] {
        var lines: [String] = []
        func visit(_ node: ScreenNode, name: String, depth: Int) {
            let indent = String(repeating: "  ", count: depth)
            switch node.kind {
            case .tabs: lines.append("\(indent)\(name)  selected: \(node.selectedChild?.identifier ?? "none")")
            case .stack: lines.append("\(indent)\(name)  stack")
            case .screen, .container:
                let summary = (node.screen as? any ShopScreen)?.summary ?? node.screen.map { "\($0.typeKey)" } ?? ""
                lines.append("\(indent)\(name)  \(summary)")
            }
            for (index, child) in node.children.enumerated() {
                let childName = child.identifier ?? "?"
                visit(child, name: node.kind == .stack ? "\(childName)#\(index)" : childName, depth: depth + 1)
            }
            if let presented = node.presented {
                visit(presented, name: presented.identifier ?? "?", depth: depth + 1)
            }
        }
        visit(tree.root, name: tree.root.identifier ?? "?", depth: 0)
        return lines
    }
}
