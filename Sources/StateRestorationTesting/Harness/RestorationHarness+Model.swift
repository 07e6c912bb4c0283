public import StateRestoration

extension RestorationHarness {
    /// The model a simulated process runs: the app's own model type,
    /// `RestorationModel<Delegate>`, so the code the app builds its UI with takes it.
    public typealias Model = RestorationModel<Delegate>

    /// A simulated process that ran on a model, went to the background and was
    /// ended, and the process relaunched after it: what
    /// ``RestorationHarness/relaunchModel(prepare:_:)`` returns.
    ///
    /// ```swift
    /// let relaunched = try await harness.relaunchModel { model in
    ///     model.path(of: "browse").wrappedValue.append(ScreenEntry(ProductScreen(state: .init(productID: "p-42"))))
    /// }
    /// #expect(relaunched.model.tree == relaunched.endedTree)
    /// ```
    @MainActor
    public struct ModelRelaunch {
        /// The relaunched process's model, launched and showing its restored tree.
        public let model: Model
        /// The tree the ended process's model held when it was ended, after its
        /// screens captured their live state.
        public let endedTree: ScreenTree
        /// The ended process's last save, made when it entered the background.
        public let saveReport: SaveReport
        /// The shared objects of the relaunched process, registered before its launch.
        public let objects: [String: any RestorableObject]

        /// What the relaunched process's launch did.
        public let report: LaunchReport
    }

    /// Runs one simulated process on a model, as an app does, then ends it and
    /// launches the next on a new model, in one call.
    ///
    /// The first process makes its model and lets `prepare` register its hooks,
    /// launches (restoring whatever the storage holds) and reports its interface
    /// up, then hands the model to `use`: the user's edits, made through the
    /// projections as the UI makes them. It then enters the background through
    /// `handle(.background)`, which saves, and ends. The relaunched process does the
    /// same up to its launch.
    ///
    /// ```swift
    /// let relaunched = try await harness.relaunchModel { model in
    ///     model.path(of: "browse").wrappedValue.append(ScreenEntry(ProductScreen(state: .init(productID: "p-42"))))
    ///     model.state(of: SearchScreen.self, at: "search#0")?.wrappedValue.query = "milk"
    /// }
    /// #expect(relaunched.model.path(of: "browse").wrappedValue.count == 1)
    /// #expect(relaunched.model.tree == relaunched.endedTree)
    /// ```
    ///
    /// - Parameters:
    ///   - prepare: Registers the model's preparation hooks, before its launch;
    ///     called once for each process.
    ///   - use: What the user does in the first process, after its launch.
    /// - Returns: The relaunched process.
    /// - Throws: What the launches or `use` throw; the background save's error
    ///   (nothing was saved then); a ``HarnessError`` when the first process's
    ///   model refused a change `use` made through a projection.
    @MainActor
    public func relaunchModel(
        prepare: @MainActor (Model) -> Void = { _ in }, _ use: @MainActor (Model) async throws -> Void
    ) async throws -> ModelRelaunch {
        try await relaunchModel(objects: { [:] }, prepare: { model, _ in prepare(model) }) { model, _ in
            try await use(model)
        }
    }

    /// Runs one simulated process on a model with shared objects registered, then
    /// ends it and launches the next, in one call.
    ///
    /// As ``relaunchModel(prepare:_:)``, with each process making its own shared
    /// objects and registering them before its launch; `use` gets the first
    /// process's objects beside its model, and the result holds the relaunched
    /// process's, restored.
    ///
    /// ```swift
    /// let relaunched = try await harness.relaunchModel(objects: { ["cart": Cart()] }) { model, objects in
    ///     (objects["cart"] as? Cart)?.add("p-42")
    ///     model.selectedTab(in: "tabs").wrappedValue = "cart"
    /// }
    /// #expect((relaunched.objects["cart"] as? Cart)?.items == ["p-42"])
    /// ```
    ///
    /// - Parameters:
    ///   - objects: Makes one process's shared objects, by identifier; called once
    ///     for each process.
    ///   - prepare: Registers the model's preparation hooks, before its launch, with
    ///     that process's objects (to hand them to screens); called once for each
    ///     process.
    ///   - use: What the user does in the first process, after its launch, with
    ///     that process's objects.
    /// - Returns: The relaunched process.
    /// - Throws: What ``relaunchModel(prepare:_:)`` throws.
    @MainActor
    public func relaunchModel(
        objects: @MainActor () -> [String: any RestorableObject],
        prepare: @MainActor (Model, _ objects: [String: any RestorableObject]) -> Void = { _, _ in },
        _ use: @MainActor (Model, _ objects: [String: any RestorableObject]) async throws -> Void
    ) async throws -> ModelRelaunch {
        let endedObjects = objects()
        let (ended, _) = try await launchModel(objects: endedObjects, prepare: prepare)
        try await use(ended, endedObjects)
        if let refusal = ended.lastRefusal {
            throw HarnessError("the model refused a change the test made through a projection: \(refusal)")
        }
        ended.handle(.background)
        await ended.savesFinished()
        if let error = ended.lastSaveError { throw error }
        guard let saveReport = ended.lastSaveReport else {
            throw HarnessError("the model entered the background without saving")
        }
        let endedTree = ended.tree

        let relaunchedObjects = objects()
        let (relaunched, report) = try await launchModel(objects: relaunchedObjects, prepare: prepare)
        return ModelRelaunch(
            model: relaunched, endedTree: endedTree, saveReport: saveReport, objects: relaunchedObjects, report: report)
    }

    /// One simulated process: a new coordinator over a new store, with a new delegate
    /// and the objects registered, a new model prepared, launched, and its interface
    /// reported up.
    @MainActor
    private func launchModel(
        objects: [String: any RestorableObject],
        prepare: @MainActor (Model, [String: any RestorableObject]) -> Void
    ) async throws -> (Model, LaunchReport) {
        let coordinator = RestorationCoordinator(
            screens: declaration, store: makeStore(), delegate: makeDelegate(), configuration: configuration)
        for (identifier, object) in objects { await coordinator.register(object, identifier: identifier) }
        let model = try Model(coordinator: coordinator)
        prepare(model, objects)
        let report = try await model.launch()
        await model.restoredInterfaceDidAppear()
        return (model, report)
    }
}
