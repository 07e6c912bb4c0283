extension ScreenTree {
    /// Pushes a screen onto a navigation stack.
    ///
    /// The screen's type must be declared as pushable on that stack; its path
    /// component is its identifier with its position, as `UINavigationController`
    /// names its children: pushing a second `product` gives `browse/product#2`.
    ///
    /// ```swift
    /// try tree.push(ProductScreen(state: .init(productID: "p-42")), onto: "browse")
    /// ```
    ///
    /// - Parameters:
    ///   - screen: The screen to push.
    ///   - stack: The stack: a path, or an identifier only one node has.
    ///   - id: The declared identifier to push it as, when the type is declared
    ///     pushable under several; nil takes the first declaration of the type.
    /// - Throws: ``HierarchyError`` when there is no such stack, or the type is not
    ///   declared pushable on it.
    public mutating func push<S: RestorableScreen>(
        _ screen: S, onto stack: NodeReference, id: String? = nil
    ) throws(HierarchyError) {
        try push(screen, onto: stack, id: id, nodeID: .make())
    }

    /// Pushes a screen as a node with a given identity.
    mutating func push<S: RestorableScreen>(
        _ screen: S, onto stack: NodeReference, id: String?, nodeID: ScreenNode.ID
    ) throws(HierarchyError) {
        try modify(stack) { (node, visit) throws(HierarchyError) in
            try Self.require(node, is: .stack, for: "push onto", visit)
            let declared = try Self.declaration(
                of: S.self, id: id, among: node.declaration.pushable, role: "pushable", visit)
            node.children.append(
                ScreenNode(declaration: declared, identifier: declared.identifier, screen: screen, id: nodeID))
        }
    }

    /// Pops the top screen off a navigation stack.
    ///
    /// - Parameter stack: The stack: a path, or an identifier only one node has.
    /// - Returns: The popped node.
    /// - Throws: ``HierarchyError`` when there is no such stack, or only its root is left.
    @discardableResult
    public mutating func pop(from stack: NodeReference) throws(HierarchyError) -> ScreenNode {
        try modify(stack) { (node, visit) throws(HierarchyError) -> ScreenNode in
            try Self.require(node, is: .stack, for: "pop from", visit)
            guard node.children.count > 1, let top = node.children.popLast() else {
                throw HierarchyError(
                    .cannotPopRoot, reference: stack.description,
                    message: "cannot pop from \(visit.displayPath): only its root is left")
            }
            return top
        }
    }

    /// Pops every screen above the root of a navigation stack.
    ///
    /// - Parameter stack: The stack: a path, or an identifier only one node has.
    /// - Throws: ``HierarchyError`` when there is no such stack.
    public mutating func popToRoot(of stack: NodeReference) throws(HierarchyError) {
        try modify(stack) { (node, visit) throws(HierarchyError) in
            try Self.require(node, is: .stack, for: "pop to the root of", visit)
            node.children.removeSubrange(1...)
        }
    }

    /// Pops every screen above a given one off a navigation stack.
    ///
    /// What the back button's menu does, or a mirror's `popToViewController`:
    ///
    /// ```swift
    /// if let product = tree["tabs/browse/product#1"]?.id {
    ///     try tree.pop(to: product, in: "browse")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The identity of the screen that becomes the top; popping to the top
    ///     pops nothing.
    ///   - stack: The stack: a path, or an identifier only one node has.
    /// - Returns: The popped nodes, bottom first.
    /// - Throws: ``HierarchyError`` when there is no such stack, or the screen is not
    ///   on it (`not-found`).
    @discardableResult
    public mutating func pop(to id: ScreenNode.ID, in stack: NodeReference) throws(HierarchyError) -> [ScreenNode] {
        try modify(stack) { (node, visit) throws(HierarchyError) -> [ScreenNode] in
            try Self.require(node, is: .stack, for: "pop", visit)
            guard let position = node.children.firstIndex(where: { $0.id == id }) else {
                throw HierarchyError(
                    .notFound, reference: visit.displayPath.description,
                    message: "cannot pop \(visit.displayPath) to \(id): it is not on that stack")
            }
            return Self.popAbove(position, of: &node)
        }
    }

    /// Pops every screen above a given position off a navigation stack.
    ///
    /// Positions are those of the stack's paths: `browse/search#0` is the root,
    /// so popping to position 0 pops to the root.
    ///
    /// ```swift
    /// try tree.pop(toPosition: 1, in: "browse")  // keeps search#0 and product#1
    /// ```
    ///
    /// - Parameters:
    ///   - position: The position of the screen that becomes the top, from 0.
    ///   - stack: The stack: a path, or an identifier only one node has.
    /// - Returns: The popped nodes, bottom first.
    /// - Throws: ``HierarchyError`` when there is no such stack, or no screen at
    ///   that position (`not-found`).
    @discardableResult
    public mutating func pop(toPosition position: Int, in stack: NodeReference) throws(HierarchyError) -> [ScreenNode] {
        try modify(stack) { (node, visit) throws(HierarchyError) -> [ScreenNode] in
            try Self.require(node, is: .stack, for: "pop", visit)
            guard node.children.indices.contains(position) else {
                throw HierarchyError(
                    .notFound, reference: visit.displayPath.description,
                    message:
                        "cannot pop \(visit.displayPath) to position \(position): it holds \(node.children.count) screens, at positions 0 to \(node.children.count - 1)"
                )
            }
            return Self.popAbove(position, of: &node)
        }
    }

    /// Sets a navigation stack's screens to its bottom ones, as the UI reports them.
    ///
    /// The setter of a stack binding: after a back swipe, the back button, or a
    /// pop to any level, SwiftUI's `NavigationStack(path:)` or a
    /// `UINavigationController` mirror says which screens are left, and those are
    /// always the stack's bottom screens in order. Anything else is refused, so a
    /// stale or reordered path never rewrites the tree.
    ///
    /// ```swift
    /// let shown = tree["browse"]?.children.map(\.id) ?? []
    /// try tree.setScreens(Array(shown.prefix(2)), of: "browse")  // back to the second screen
    /// ```
    ///
    /// - Parameters:
    ///   - ids: The identities of the screens that stay, root first.
    ///   - stack: The stack: a path, or an identifier only one node has.
    /// - Returns: The popped nodes, bottom first.
    /// - Throws: ``HierarchyError`` when there is no such stack; when `ids` is empty
    ///   (`cannot-pop-root`); when it names a screen that is not on the stack
    ///   (`not-found`); or when a screen is not at its position on the stack, because
    ///   `ids` reorders, repeats or skips screens (`not-a-prefix`).
    @discardableResult
    public mutating func setScreens(_ ids: [ScreenNode.ID], of stack: NodeReference) throws(HierarchyError)
        -> [ScreenNode]
    {
        try modify(stack) { (node, visit) throws(HierarchyError) -> [ScreenNode] in
            try Self.require(node, is: .stack, for: "set the screens of", visit)
            guard !ids.isEmpty else {
                throw HierarchyError(
                    .cannotPopRoot, reference: visit.displayPath.description,
                    message: "cannot set the screens of \(visit.displayPath) to none: its root stays")
            }
            for (position, id) in ids.enumerated() {
                guard let current = node.children.firstIndex(where: { $0.id == id }) else {
                    throw HierarchyError(
                        .notFound, reference: visit.displayPath.description,
                        message: "cannot set the screens of \(visit.displayPath): \(id) is not on that stack")
                }
                guard current == position else {
                    throw HierarchyError(
                        .notAPrefix, reference: visit.displayPath.description,
                        message:
                            "cannot set the screens of \(visit.displayPath): \(id) is at position \(current), not \(position); only screens at the top can be removed"
                    )
                }
            }
            return Self.popAbove(ids.count - 1, of: &node)
        }
    }

    /// Selects a tab by its identifier.
    ///
    /// - Parameters:
    ///   - tab: The tab's identifier.
    ///   - tabs: The tabs: a path, or an identifier only one node has.
    /// - Throws: ``HierarchyError`` when there are no such tabs or no such tab.
    public mutating func selectTab(_ tab: String, in tabs: NodeReference) throws(HierarchyError) {
        try modify(tabs) { (node, visit) throws(HierarchyError) in
            try Self.require(node, is: .tabs, for: "select a tab in", visit)
            guard let index = node.children.firstIndex(where: { $0.identifier == tab }) else {
                throw HierarchyError(.notFound, reference: tab, message: "\(visit.displayPath) has no tab named \(tab)")
            }
            node.selectedIndex = index
        }
    }

    /// Selects a tab by its position.
    ///
    /// - Parameters:
    ///   - index: The tab's position, from 0.
    ///   - tabs: The tabs: a path, or an identifier only one node has.
    /// - Throws: ``HierarchyError`` when there are no such tabs or no tab at `index`.
    public mutating func selectTab(at index: Int, in tabs: NodeReference) throws(HierarchyError) {
        try modify(tabs) { (node, visit) throws(HierarchyError) in
            try Self.require(node, is: .tabs, for: "select a tab in", visit)
            guard node.children.indices.contains(index) else {
                throw HierarchyError(
                    .notFound, reference: "\(index)",
                    message: "\(visit.displayPath) has \(node.children.count) tabs; there is no tab \(index)")
            }
            node.selectedIndex = index
        }
    }

    /// Presents a screen modally over a node.
    ///
    /// The screen's type must be declared with `.presents { … }` on that node.
    ///
    /// ```swift
    /// try tree.present(ComposeScreen(state: .init()), over: "tabs/browse/product#1")
    /// ```
    ///
    /// - Parameters:
    ///   - screen: The screen to present.
    ///   - presenter: The node to present over: a path, or an identifier only one node has.
    ///   - id: The declared identifier to present it as; nil takes the first
    ///     declaration of the type.
    /// - Throws: ``HierarchyError`` when the presenter is missing, already presents
    ///   something, or does not declare the type as presentable.
    public mutating func present<S: RestorableScreen>(
        _ screen: S, over presenter: NodeReference, id: String? = nil
    ) throws(HierarchyError) {
        try present(screen, over: presenter, id: id, nodeID: .make())
    }

    /// Presents a screen as a node with a given identity.
    mutating func present<S: RestorableScreen>(
        _ screen: S, over presenter: NodeReference, id: String?, nodeID: ScreenNode.ID
    ) throws(HierarchyError) {
        try modify(presenter) { (node, visit) throws(HierarchyError) in
            let declared = try Self.declaration(
                of: S.self, id: id, among: node.declaration.presentable, role: "presentable", visit)
            try Self.requireNothingPresented(node, visit)
            node.presented = ScreenNode(
                declaration: declared, identifier: declared.identifier, screen: screen, id: nodeID)
        }
    }

    /// Presents a declared stack, tabs or container (as declared, with its
    /// initial screens) modally over a node.
    ///
    /// - Parameters:
    ///   - id: The identifier of the element in the presenter's `.presents { … }`.
    ///   - presenter: The node to present over: a path, or an identifier only one node has.
    /// - Throws: ``HierarchyError`` when the presenter is missing, already presents
    ///   something, or declares no such element.
    public mutating func presentDeclared(_ id: String, over presenter: NodeReference) throws(HierarchyError) {
        try presentDeclared(id, over: presenter, nodeID: nil)
    }

    /// Presents a declared element whose root node takes a given identity.
    mutating func presentDeclared(_ id: String, over presenter: NodeReference, nodeID: ScreenNode.ID?)
        throws(HierarchyError)
    {
        try modify(presenter) { (node, visit) throws(HierarchyError) in
            guard let declared = node.declaration.presentable.first(where: { $0.identifier == id }),
                let initial = declared.makeInitialNode()
            else {
                throw HierarchyError(
                    .notDeclared, reference: id,
                    message: "\(visit.displayPath) declares no presentable element \(id) with initial screens")
            }
            try Self.requireNothingPresented(node, visit)
            var presented = initial
            if let nodeID { presented.id = nodeID }
            node.presented = presented
        }
    }

    /// Dismisses what is presented over a node, and everything presented over that.
    ///
    /// - Parameter presenter: The presenting node: a path, or an identifier only one node has.
    /// - Returns: The dismissed node.
    /// - Throws: ``HierarchyError`` when the node presents nothing.
    @discardableResult
    public mutating func dismiss(from presenter: NodeReference) throws(HierarchyError) -> ScreenNode {
        try modify(presenter) { (node, visit) throws(HierarchyError) -> ScreenNode in
            guard let presented = node.presented else {
                throw HierarchyError(
                    .nothingPresented, reference: presenter.description,
                    message: "\(visit.displayPath) presents nothing to dismiss")
            }
            node.presented = nil
            return presented
        }
    }

    /// Adds a child to a custom container.
    ///
    /// The child's type must be among the container's declared children. Its
    /// identifier must be unique among the container's children (two
    /// web views both named `webview` showed one product's page under another).
    /// An identifier one of the container's declared children has gives the child
    /// that declaration (what it may present), as a restore will.
    ///
    /// - Parameters:
    ///   - screen: The child screen.
    ///   - id: The child's identifier; nil takes the declared one.
    ///   - container: The container: a path, or an identifier only one node has.
    /// - Throws: ``HierarchyError`` when the container is missing, the type is not
    ///   declared as its child, a sibling has the identifier, the container declares
    ///   the identifier for another type or as presentable (`duplicate-identifier`), or
    ///   the identifier is empty or contains `/` or `#` (`invalid-identifier`).
    public mutating func addChild<S: RestorableScreen>(
        _ screen: S, id: String? = nil, to container: NodeReference
    ) throws(HierarchyError) {
        try addChild(screen, id: id, to: container, nodeID: .make())
    }

    /// Adds a child as a node with a given identity.
    mutating func addChild<S: RestorableScreen>(
        _ screen: S, id: String?, to container: NodeReference, nodeID: ScreenNode.ID
    ) throws(HierarchyError) {
        try modify(container) { (node, visit) throws(HierarchyError) in
            try Self.require(node, is: .container, for: "add a child to", visit)
            // A restore finds a child's declaration by its identifier first, then by its type:
            // the child takes the declaration the restore will find, or is refused.
            let named = id.flatMap { id in node.declaration.children.first { $0.identifier == id } }
            if let named, let id, !named.declares(S.self) {
                throw HierarchyError(
                    .duplicateIdentifier, reference: id,
                    message:
                        "\(visit.displayPath) declares its child \(id) as \(named.typeKey?.rawValue ?? named.kind.rawValue); a \(S.self) cannot take that identifier"
                )
            }
            guard let declared = named ?? node.declaration.children.first(where: { $0.declares(S.self) }) else {
                throw HierarchyError(
                    .notDeclared, reference: container.description,
                    message: "\(S.self) is not declared as a child of \(visit.displayPath)")
            }
            let identifier = id ?? declared.identifier
            if let identifier, !DeclarationNode.isValidIdentifier(identifier) {
                throw HierarchyError(
                    .invalidIdentifier, reference: identifier,
                    message:
                        "\(visit.displayPath) cannot have a child named \"\(identifier)\": identifiers are non-empty and contain no / or #"
                )
            }
            if let identifier, node.children.contains(where: { $0.identifier == identifier }) {
                throw HierarchyError(
                    .duplicateIdentifier, reference: identifier,
                    message: "\(visit.displayPath) already has a child named \(identifier)")
            }
            if let identifier, node.declaration.presentable.contains(where: { $0.identifier == identifier }) {
                throw HierarchyError(
                    .duplicateIdentifier, reference: identifier,
                    message:
                        "\(visit.displayPath) declares \(identifier) as presentable; a child cannot take that identifier"
                )
            }
            node.children.append(ScreenNode(declaration: declared, identifier: identifier, screen: screen, id: nodeID))
        }
    }

    /// Removes a child from a custom container.
    ///
    /// - Parameters:
    ///   - id: The child's identifier.
    ///   - container: The container: a path, or an identifier only one node has.
    /// - Returns: The removed node.
    /// - Throws: ``HierarchyError`` when the container or the child is missing.
    @discardableResult
    public mutating func removeChild(_ id: String, from container: NodeReference) throws(HierarchyError) -> ScreenNode {
        try modify(container) { (node, visit) throws(HierarchyError) -> ScreenNode in
            try Self.require(node, is: .container, for: "remove a child from", visit)
            guard let index = node.children.firstIndex(where: { $0.identifier == id }) else {
                throw HierarchyError(.notFound, reference: id, message: "\(visit.displayPath) has no child named \(id)")
            }
            return node.children.remove(at: index)
        }
    }

    /// Changes the screen at a reference in place.
    ///
    /// ```swift
    /// try tree.update(SearchScreen.self, at: "search#0") { $0.state.query = "milk" }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The screen's type.
    ///   - reference: A path, or an identifier only one node has.
    ///   - body: Changes the screen.
    /// - Throws: ``HierarchyError`` when there is no screen of that type there.
    public mutating func update<S: RestorableScreen>(
        _ type: S.Type, at reference: NodeReference, _ body: (inout S) -> Void
    ) throws(HierarchyError) {
        try modify(reference) { (node, visit) throws(HierarchyError) in
            guard var screen = node.screen as? S else {
                throw HierarchyError(
                    .typeMismatch, reference: reference.description,
                    message:
                        "\(visit.displayPath) holds \(node.screen.map { "\(Swift.type(of: $0))" } ?? "no screen"), not \(S.self)"
                )
            }
            body(&screen)
            node.screen = screen
        }
    }

    private static func require(
        _ node: ScreenNode, is kind: DeclarationNode.Kind, for operation: String, _ visit: Visit
    ) throws(HierarchyError) {
        guard node.kind == kind else {
            throw HierarchyError(
                .wrongKind, reference: visit.displayPath.description,
                message:
                    "cannot \(operation) \(visit.displayPath): it is a \(node.kind.rawValue), not a \(kind.rawValue)")
        }
    }

    /// Removes a stack's screens above `position` and returns them, bottom first.
    private static func popAbove(_ position: Int, of stack: inout ScreenNode) -> [ScreenNode] {
        let popped = Array(stack.children[(position + 1)...])
        stack.children.removeSubrange((position + 1)...)
        return popped
    }

    private static func requireNothingPresented(_ node: ScreenNode, _ visit: Visit) throws(HierarchyError) {
        if let presented = node.presented {
            throw HierarchyError(
                .alreadyPresenting, reference: visit.displayPath.description,
                message: "\(visit.displayPath) already presents \(presented.displayName); dismiss it first")
        }
    }

    private static func declaration<S: RestorableScreen>(
        of type: S.Type, id: String?, among candidates: [DeclarationNode], role: String, _ visit: Visit
    ) throws(HierarchyError) -> DeclarationNode {
        let match = candidates.first { $0.declares(S.self) && (id == nil || $0.identifier == id) }
        guard let match else {
            let named = id.map { " as \($0)" } ?? ""
            throw HierarchyError(
                .notDeclared, reference: visit.displayPath.description,
                message: "\(S.self)\(named) is not declared as \(role) on \(visit.displayPath)")
        }
        return match
    }
}
