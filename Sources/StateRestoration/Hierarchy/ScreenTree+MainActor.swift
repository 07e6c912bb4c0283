extension ScreenTree {
    /// Calls ``RestorableScreen/willEncodeRestorableState()`` on every screen of the
    /// tree, in tree order, so that each copies into its state what only the live UI
    /// knows.
    ///
    /// ``RestorationCoordinator/save(_:)-(RestorationHost)`` calls it on the host's
    /// tree before saving; an app that keeps its tree elsewhere calls it before
    /// ``RestorationCoordinator/save(_:)-(ScreenTree)``:
    ///
    /// ```swift
    /// tree.captureLiveState()
    /// try await coordinator.save(tree)
    /// ```
    @MainActor public mutating func captureLiveState() {
        root.forEachNode { node in
            // Replaced only when the hook changed the state: most screens have nothing to capture.
            guard let screen = node.screen else { return }
            let captured = screen.capturingLiveState()
            if !captured.isEqual(to: screen) { node.screen = captured }
        }
    }

    /// Calls ``RestorableScreen/restorationDidFinish(_:)`` on each screen of the tree
    /// that `results` names, in tree order; screens no longer in the tree get nothing.
    @MainActor mutating func finishRestoring(_ results: [ScreenNode.ID: RestorationResults]) {
        root.forEachNode { node in
            guard let screenResults = results[node.id] else { return }
            node.screen = node.screen?.finishingRestoration(screenResults)
        }
    }
}

extension ScreenNode {
    /// Calls `body` on this node and every node under it, in tree order: a node, its
    /// children in order, then the node presented over it.
    mutating func forEachNode(_ body: (inout ScreenNode) -> Void) {
        body(&self)
        for index in children.indices { children[index].forEachNode(body) }
        for index in presentedStorage.indices { presentedStorage[index].forEachNode(body) }
    }
}

extension RestorableScreen {
    @MainActor func capturingLiveState() -> any RestorableScreen {
        var copy = self
        copy.willEncodeRestorableState()
        return copy
    }

    @MainActor func finishingRestoration(_ results: RestorationResults) -> any RestorableScreen {
        var copy = self
        copy.restorationDidFinish(results)
        return copy
    }
}
