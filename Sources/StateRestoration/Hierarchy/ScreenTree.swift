/// The live hierarchy of an app: the value its UI mirrors, and what is saved.
///
/// A tree starts as the declaration's initial hierarchy
/// (``ScreenDeclaration/makeInitialTree()``) or as what ``RestorationCoordinator/launch(into:)``
/// restored into the app's ``RestorationHost``. The app changes it as the user
/// navigates, and the host is saved with
/// ``RestorationCoordinator/save(_:)-(RestorationHost)`` when the app enters the
/// background.
///
/// ```swift
/// try model.tree.push(ProductScreen(state: .init(productID: "p-42")), onto: "browse")
/// try model.tree.selectTab("settings", in: "tabs")
/// try await coordinator.save(model)
/// ```
///
/// Two trees are equal when their nodes are: same structure, identifiers,
/// selections, and screens of the same types with equal states.
public struct ScreenTree: Sendable, Equatable {
    /// The root node.
    public internal(set) var root: ScreenNode

    init(root: ScreenNode) {
        self.root = root
    }

    /// One node of a walk through the tree.
    struct Visit {
        var node: ScreenNode
        var address: [NodeStep]
        /// The restoration path; nil when the node or an ancestor has no identifier.
        var path: IdentifierPath?
        /// The path for messages, naming unidentified nodes by type or kind.
        var displayPath: IdentifierPath
    }

    /// Visits every node in tree order: a node, its children in order, then the
    /// node presented over it.
    func walk(_ body: (Visit) throws -> Void) rethrows {
        func visit(_ node: ScreenNode, _ address: [NodeStep], _ path: IdentifierPath?, _ display: IdentifierPath) throws
        {
            try body(Visit(node: node, address: address, path: path, displayPath: display))
            for index in node.children.indices {
                let child = node.children[index]
                let component = node.component(ofChild: index)
                try visit(
                    child, address + [.child(index)], component.flatMap { path?.appending($0) },
                    display.appending(component ?? child.displayName))
            }
            if let presented = node.presented {
                try visit(
                    presented, address + [.presented], presented.identifier.flatMap { path?.appending($0) },
                    display.appending(presented.displayName))
            }
        }
        try visit(root, [], root.identifier.map { IdentifierPath([$0]) }, IdentifierPath([root.displayName]))
    }

    /// The node at a restoration path, or nil.
    ///
    /// - Parameter path: The node's identifier path from the root.
    /// - Returns: The node, or nil when no node has that path.
    public func node(at path: IdentifierPath) -> ScreenNode? {
        try? resolve(NodeReference(path)).node
    }

    /// The node a reference names, or nil.
    ///
    /// - Parameter reference: A path or an identifier only one node has.
    /// - Returns: The node, or nil when none (or several) match.
    public subscript(_ reference: NodeReference) -> ScreenNode? {
        try? resolve(reference).node
    }

    /// The screen of type `S` at a reference, or nil.
    ///
    /// - Parameters:
    ///   - type: The screen's type.
    ///   - reference: A path or an identifier only one node has.
    /// - Returns: The screen, or nil when there is none of that type there.
    public func screen<S: RestorableScreen>(_ type: S.Type = S.self, at reference: NodeReference) -> S? {
        self[reference]?.screen as? S
    }

    /// The restoration paths of every node that would be saved, in the order a save
    /// writes them: a node, its children, then what is presented over it.
    ///
    /// The save's rules apply: a node without an identifier is left out with
    /// everything under it, on a stack so is every screen above it, and a custom
    /// container keeps the children its ``RestorableContainer/childrenToPreserve(_:)``
    /// returns, in that order.
    public var restorablePaths: [IdentifierPath] {
        var paths: [IdentifierPath] = []
        func visit(_ node: ScreenNode, _ path: IdentifierPath) {
            paths.append(path)
            switch node.kind {
            case .container:
                let identifiers = node.children.map(\.identifier)
                let preserved =
                    (node.screen as? any RestorableContainer)?.childrenToPreserve(identifiers)
                    ?? identifiers.compactMap { $0 }
                var added: Set<String> = []
                for identifier in preserved where added.insert(identifier).inserted {
                    guard let child = node.children.first(where: { $0.identifier == identifier }) else { continue }
                    visit(child, path.appending(identifier))
                }
            case .stack, .tabs, .screen:
                for index in node.children.indices {
                    guard let component = node.component(ofChild: index) else {
                        if node.kind == .stack { break }  // what is above it on the stack is not saved
                        continue
                    }
                    visit(node.children[index], path.appending(component))
                }
            }
            if let presented = node.presented, let identifier = presented.identifier {
                visit(presented, path.appending(identifier))
            }
        }
        if let identifier = root.identifier { visit(root, IdentifierPath([identifier])) }
        return paths
    }

    /// Finds the one node a reference names.
    ///
    /// A path is followed from the root down, one level at a time; an identifier
    /// is searched for in the whole tree, since it must name exactly one node.
    func resolve(_ reference: NodeReference) throws(HierarchyError) -> Visit {
        var matches: [Visit] = []
        switch reference.form {
        case .path(let path):
            matches = descend(to: path)
        case .identifier(let identifier):
            walk { visit in
                if visit.path?.last == identifier || visit.node.identifier == identifier { matches.append(visit) }
            }
        case .node(let id):
            if let address = root.address(of: id) { matches = [visit(at: address)] }
        }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty {
            if case .node = reference.form {
                throw HierarchyError(
                    .notFound, reference: reference.description,
                    message: "\(reference) is not in the tree: it was closed or replaced")
            }
            throw HierarchyError(.notFound, reference: reference.description, message: "no node named \(reference)")
        }
        let names = matches.map { ($0.path ?? $0.displayPath).description }.joined(separator: ", ")
        throw HierarchyError(
            .ambiguous, reference: reference.description,
            message: "\(matches.count) nodes are named \(reference) (\(names)); give a full path")
    }

    /// The visit of the node at `address`, with its paths built along the way down.
    private func visit(at address: [NodeStep]) -> Visit {
        var node = root
        var path = root.identifier.map { IdentifierPath([$0]) }
        var display = IdentifierPath([root.displayName])
        for step in address {
            let next: ScreenNode
            let component: String?
            switch step {
            case .child(let index):
                next = node.children[index]
                component = node.component(ofChild: index)
            case .presented:
                next = node.presentedStorage[0]
                component = next.identifier
            }
            path = component.flatMap { path?.appending($0) }
            display = display.appending(component ?? next.displayName)
            node = next
        }
        return Visit(node: node, address: address, path: path, displayPath: display)
    }

    /// The nodes whose restoration path, or display path when they have none, is
    /// `path`: followed level by level from the root.
    private func descend(to path: IdentifierPath) -> [Visit] {
        let components = path.components
        guard let first = components.first, root.identifier ?? root.displayName == first else { return [] }
        var level = [
            Visit(
                node: root, address: [], path: root.identifier.map { IdentifierPath([$0]) },
                displayPath: IdentifierPath([root.displayName]))
        ]
        for component in components.dropFirst() {
            var next: [Visit] = []
            for visit in level {
                let node = visit.node
                for index in node.children.indices {
                    let childComponent = node.component(ofChild: index)
                    guard (childComponent ?? node.children[index].displayName) == component else { continue }
                    next.append(
                        Visit(
                            node: node.children[index], address: visit.address + [.child(index)],
                            path: childComponent.flatMap { visit.path?.appending($0) },
                            displayPath: visit.displayPath.appending(component)))
                }
                if let presented = node.presented, (presented.identifier ?? presented.displayName) == component {
                    next.append(
                        Visit(
                            node: presented, address: visit.address + [.presented],
                            path: presented.identifier.flatMap { visit.path?.appending($0) },
                            displayPath: visit.displayPath.appending(component)))
                }
            }
            level = next
        }
        return level
    }

    /// Changes the node a reference names.
    mutating func modify<R>(
        _ reference: NodeReference, _ body: (inout ScreenNode, Visit) throws(HierarchyError) -> R
    ) throws(HierarchyError) -> R {
        let visit = try resolve(reference)
        return try root.modify(at: visit.address[...]) { (node) throws(HierarchyError) -> R in try body(&node, visit) }
    }
}

extension ScreenTree: CustomStringConvertible {
    /// The tree, one node per line, indented by depth, with each screen's state.
    ///
    /// ```text
    /// tabs [tabs, selected: browse]
    ///   browse [stack]
    ///     search#0 search State(query: "milk", scrollOffset: 120.0)
    ///     product#1 product State(productID: "p-42", quantity: 2)
    /// ```
    public var description: String {
        var lines: [String] = []
        walk { visit in
            let node = visit.node
            let depth = visit.address.count
            var line = String(repeating: "  ", count: depth)
            if visit.address.last == .presented { line += "presented " }
            line += visit.displayPath.last ?? node.displayName
            switch node.kind {
            case .screen:
                if let screen = node.screen { line += " \(screen.typeKey) \(screen.stateDescription)" }
            case .container:
                line += " [container]"
                if let screen = node.screen { line += " \(screen.typeKey) \(screen.stateDescription)" }
            case .stack:
                line += " [stack]"
            case .tabs:
                line += " [tabs, selected: \(node.selectedChild?.displayName ?? "none")]"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}

extension RestorableScreen {
    /// The screen's state as Swift prints it.
    var stateDescription: String { String(describing: state) }
}
