extension RestorationModel {
    /// A navigation stack's screens above its root, as SwiftUI's
    /// `NavigationStack(path:)` takes them (the root is the stack's root view).
    ///
    /// The getter lists the screens as entries that keep their identity while the
    /// screen is on the stack, whatever its state becomes. The setter takes what
    /// the user can do: go back to any screen (a back swipe, the back button, its
    /// menu), and open screens, given as entries made from declared screens
    /// (``ScreenEntry/init(_:as:)``), appended above the screens kept. Anything
    /// else (a reordered, repeated or stale path, a screen the stack does not
    /// declare) is refused with a ``HierarchyError`` naming the stack.
    ///
    /// ```swift
    /// NavigationStack(path: model.path(of: "inbox").binding) {
    ///     MailboxView(model: model)
    ///         .navigationDestination(for: ScreenEntry.self) { entry in ScreenView(model: model, entry: entry) }
    /// }
    /// ```
    ///
    /// Reading it observes the stack alone: a change of a screen's state on it, or
    /// of another stack, does not tell its observers.
    ///
    /// - Parameter stack: The stack: a path, an identifier only one node has, or
    ///   ``NodeReference/node(_:)``.
    /// - Returns: The projection.
    public func path(of stack: NodeReference) -> Projection<[ScreenEntry]> {
        Projection(
            get: { [weak self] in Array(self?.stackEntries(stack).dropFirst() ?? []) },
            set: { [weak self] (entries) throws(HierarchyError) in
                guard let self else { return }
                let root = Array(currentTree[stack]?.children.prefix(1) ?? [])
                try setStack(root.map(ScreenEntry.init) + entries, of: stack)
            },
            refuse: { [weak self] in self?.refuse($0) })
    }

    /// A navigation stack's screens, root first: what a `UINavigationController`
    /// mirror shows (its `viewControllers`).
    ///
    /// As ``path(of:)``, with the root included: the setter keeps at least the
    /// root.
    ///
    /// - Parameter stack: The stack: a path, an identifier only one node has, or
    ///   ``NodeReference/node(_:)``.
    /// - Returns: The projection.
    public func screens(of stack: NodeReference) -> Projection<[ScreenEntry]> {
        Projection(
            get: { [weak self] in self?.stackEntries(stack) ?? [] },
            set: { [weak self] (entries) throws(HierarchyError) in try self?.setStack(entries, of: stack) },
            refuse: { [weak self] in self?.refuse($0) })
    }

    /// The identifier of the selected tab, as SwiftUI's `TabView(selection:)`
    /// takes it (each tab tagged with its identifier) and a tab bar controller's
    /// selection sets it.
    ///
    /// ```swift
    /// TabView(selection: model.selectedTab(in: "tabs").binding) {
    ///     InboxView(model: model).tag("inbox")
    ///     SettingsView(model: model).tag("settings")
    /// }
    /// ```
    ///
    /// The setter refuses an identifier that names no tab. Reading it observes the
    /// selection alone.
    ///
    /// - Parameter tabs: The tabs: a path, an identifier only one node has, or
    ///   ``NodeReference/node(_:)``.
    /// - Returns: The projection; empty when there are no such tabs.
    public func selectedTab(in tabs: NodeReference) -> Projection<String> {
        Projection(
            get: { [weak self] in
                self?.observedNode(tabs, [.selection, .children])?.node.selectedChild?.displayName ?? ""
            },
            set: { [weak self] (tab) throws(HierarchyError) in
                guard let self else { return }
                var tree = currentTree
                try tree.selectTab(tab, in: tabs)
                self.tree = tree
            },
            refuse: { [weak self] in self?.refuse($0) })
    }

    /// The node presented over another, as SwiftUI's `.sheet(item:)` and
    /// `.fullScreenCover(item:)` take it.
    ///
    /// The setter takes nil to dismiss (a swipe down, a Cancel button), an entry
    /// made from a declared screen (``ScreenEntry/init(_:as:)``) or element
    /// (``ScreenEntry/init(declared:)``) to present it, replacing what is
    /// presented, and the presented entry itself (no change). An entry for a node
    /// that is not presented there is refused.
    ///
    /// ```swift
    /// .sheet(item: model.presented(over: "inbox").binding) { entry in ComposeView(model: model, entry: entry) }
    /// ```
    ///
    /// - Parameter presenter: The presenting node: a path, an identifier only one
    ///   node has, or ``NodeReference/node(_:)``.
    /// - Returns: The projection.
    public func presented(over presenter: NodeReference) -> Projection<ScreenEntry?> {
        Projection(
            get: { [weak self] in
                self?.observedNode(presenter, [.children])?.node.presented.map(ScreenEntry.init)
            },
            set: { [weak self] (entry) throws(HierarchyError) in try self?.setPresented(entry, over: presenter) },
            refuse: { [weak self] in self?.refuse($0) })
    }

    /// One screen's state, to bind a control to: a text field to a draft.
    ///
    /// ```swift
    /// if let draft = model.state(of: ComposeScreen.self, at: entry.reference) {
    ///     TextField("Subject", text: draft.binding.subject)
    /// }
    /// ```
    ///
    /// Reading it observes that screen alone, and so does making it: a view that
    /// made it runs again when the screen leaves the tree (at the launch's handover,
    /// say) and makes the projection of the screen that took its place. Once the
    /// screen is closed, the getter returns the last state it read and writes are
    /// dropped (a text field committing as its sheet closes), so a view on its way
    /// out never reads a missing screen or raises a refusal.
    ///
    /// - Parameters:
    ///   - type: The screen's type.
    ///   - reference: The screen: ``NodeReference/node(_:)`` (an entry's
    ///     ``ScreenEntry/reference``), a path, or an identifier only one node has.
    /// - Returns: The projection; nil when there is no screen of that type there.
    public func state<S: RestorableScreen>(of type: S.Type, at reference: NodeReference) -> Projection<S.State>? {
        guard let found = observedNode(reference, [.screen])?.node, let screen = found.screen as? S else { return nil }
        // Found by identity from now on, so a path that later names another node does not move it.
        let node = NodeReference.node(found.id)
        let last = LastRead(screen.state)
        return Projection(
            get: { [weak self] in
                if let screen = self?.observedNode(node, [.screen])?.node.screen as? S { last.value = screen.state }
                return last.value
            },
            set: { [weak self] (state) throws(HierarchyError) in
                guard let self, currentTree[node] != nil else { return }  // closed: nothing to write to
                var tree = currentTree
                try tree.update(S.self, at: node) { $0.state = state }
                self.tree = tree
            },
            refuse: { [weak self] in self?.refuse($0) })
    }

    /// A custom container's children, in order.
    ///
    /// The setter takes the children with some removed (closed by the user), and
    /// entries made from declared screens (``ScreenEntry/init(_:as:)``) appended to
    /// add them; a reordered or stale list is refused with a ``HierarchyError``
    /// naming the container.
    ///
    /// - Parameter container: The container: a path, an identifier only one node
    ///   has, or ``NodeReference/node(_:)``.
    /// - Returns: The projection.
    public func children(of container: NodeReference) -> Projection<[ScreenEntry]> {
        Projection(
            get: { [weak self] in
                self?.observedNode(container, [.children])?.node.children.map(ScreenEntry.init) ?? []
            },
            set: { [weak self] (entries) throws(HierarchyError) in try self?.setChildren(entries, of: container) },
            refuse: { [weak self] in self?.refuse($0) })
    }

    // MARK: Setters

    private func stackEntries(_ stack: NodeReference) -> [ScreenEntry] {
        guard let visit = observedNode(stack, [.children]), visit.node.kind == .stack else { return [] }
        return visit.node.children.map(ScreenEntry.init)
    }

    /// Keeps the stack's bottom screens the entries name, then pushes the entries
    /// that are new, with their identities.
    private func setStack(_ entries: [ScreenEntry], of stack: NodeReference) throws(HierarchyError) {
        var tree = currentTree
        let visit = try tree.resolve(stack)
        let onStack = Set(visit.node.children.map(\.id))
        let kept = entries.prefix { onStack.contains($0.id) }
        let stackNode = NodeReference.node(visit.node.id)
        try tree.setScreens(kept.map(\.id), of: stackNode)
        for entry in entries.dropFirst(kept.count) {
            guard case .screen(let screen, let declaredAs)? = entry.addition else {
                let reason =
                    onStack.contains(entry.id)
                    ? "it is at another position on that stack; only screens at the top can be removed"
                    : "it is not on that stack and is no screen to push"
                throw HierarchyError(
                    .notAPrefix, reference: visit.displayPath.description,
                    message: "cannot set the screens of \(visit.displayPath) to include \(entry): \(reason)")
            }
            try tree.push(screen, onto: stackNode, id: declaredAs, nodeID: entry.id)
        }
        self.tree = tree
    }

    private func setPresented(_ entry: ScreenEntry?, over presenter: NodeReference) throws(HierarchyError) {
        var tree = currentTree
        let visit = try tree.resolve(presenter)
        let current = visit.node.presented?.id
        guard entry?.id != current else { return }
        let presenterNode = NodeReference.node(visit.node.id)
        if current != nil { try tree.dismiss(from: presenterNode) }
        if let entry {
            switch entry.addition {
            case .screen(let screen, let declaredAs)?:
                try tree.present(screen, over: presenterNode, id: declaredAs, nodeID: entry.id)
            case .declared(let identifier)?:
                try tree.presentDeclared(identifier, over: presenterNode, nodeID: entry.id)
            case nil:
                throw HierarchyError(
                    .notFound, reference: visit.displayPath.description,
                    message:
                        "cannot present \(entry) over \(visit.displayPath): it is not presented there and is no screen to present"
                )
            }
        }
        self.tree = tree
    }

    private func setChildren(_ entries: [ScreenEntry], of container: NodeReference) throws(HierarchyError) {
        var tree = currentTree
        let visit = try tree.resolve(container)
        guard visit.node.kind == .container else {
            throw HierarchyError(
                .wrongKind, reference: visit.displayPath.description,
                message:
                    "cannot set the children of \(visit.displayPath): it is a \(visit.node.kind.rawValue), not a container"
            )
        }
        let current = visit.node.children.map(\.id)
        let present = Set(current)
        let kept = entries.prefix { present.contains($0.id) }.map(\.id)
        // The kept children must be in their current order: a user closes children, never reorders them.
        var position = current.startIndex
        for id in kept {
            guard let found = current[position...].firstIndex(of: id) else {
                throw HierarchyError(
                    .unsupportedChange, reference: visit.displayPath.description,
                    message:
                        "cannot set the children of \(visit.displayPath): \(id) is out of order; children can be removed or added, not reordered"
                )
            }
            position = found + 1
        }
        let keptSet = Set(kept)
        try tree.modify(.node(visit.node.id)) { (node, _) throws(HierarchyError) in
            node.children.removeAll { !keptSet.contains($0.id) }
        }
        for entry in entries.dropFirst(kept.count) {
            guard case .screen(let screen, let declaredAs)? = entry.addition else {
                throw HierarchyError(
                    .unsupportedChange, reference: visit.displayPath.description,
                    message:
                        "cannot set the children of \(visit.displayPath) to include \(entry): \(present.contains(entry.id) ? "children can be removed or added, not reordered" : "it is not a child there and is no screen to add")"
                )
            }
            try tree.addChild(screen, id: declaredAs, to: .node(visit.node.id), nodeID: entry.id)
        }
        self.tree = tree
    }
}

/// The last value a projection's getter read, for when its node is gone.
@MainActor
final class LastRead<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}
