import StateRestoration
import TestScreens

/// An app's model as the coordinator sees it: the main-actor object holding the tree the
/// UI shows. It records, once, the moment a launch hands it its tree.
@MainActor final class TreeHost: RestorationHost {
    var tree: ScreenTree {
        didSet {
            guard !receivedTree else { return }
            receivedTree = true
            probe?.record("tree handed over")
        }
    }
    /// Whether anything set ``tree`` since the host was made.
    private(set) var receivedTree = false
    let probe: Probe?

    init(_ tree: ScreenTree, probe: Probe? = nil) {
        self.tree = tree
        self.probe = probe
    }

    /// A host holding the declaration's initial tree, as an app's model does before launching.
    convenience init(_ declaration: ScreenDeclaration, probe: Probe? = nil) throws {
        self.init(try declaration.makeInitialTree(), probe: probe)
    }
}

extension TreeHost {
    /// A host a coordinator launched into and whose interface appeared, as an app's model is
    /// once its window shows.
    static func launched<Delegate: RestorationDelegate>(
        by coordinator: RestorationCoordinator<Delegate>, probe: Probe? = nil
    ) async throws -> TreeHost {
        let host = TreeHost(try coordinator.declaration.makeInitialTree(), probe: probe)
        try await coordinator.launch(into: host)
        await coordinator.restoredInterfaceDidAppear()
        return host
    }
}
