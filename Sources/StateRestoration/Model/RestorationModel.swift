public import Observation

/// The observable model of one window: its hierarchy, restored at launch and saved
/// as the app leaves the foreground, with projections SwiftUI and UIKit bind to.
///
/// The model owns the window's ``RestorationCoordinator`` and its ``ScreenTree``.
/// It is what the UI observes (it conforms to Observation's `Observable`, so
/// SwiftUI views update when what they read changes) and what the UI changes,
/// through ``tree`` or the projections (``path(of:)``, ``selectedTab(in:)``,
/// ``presented(over:)``, ``state(of:at:)``, ``children(of:)``). A projection
/// observes only the nodes it shows: pushing onto one stack does not redraw
/// another, and typing into a draft redraws only what shows the draft.
///
/// ```swift
/// @MainActor let model = try RestorationModel(
///     screens: screens, store: FileStore(directory: url), delegate: AppDelegate())
/// model.prepare(MailboxScreen.self) { screen, _ in screen.mail = services.mail }
///
/// try await model.launch()                  // the restored tree is in model.tree at once
/// await model.restoredInterfaceDidAppear()  // once the window shows it
/// model.handle(.background)                 // saves within the background time
/// ```
///
/// Its life follows UIKit's:
/// - ``launch()`` runs the coordinator's two-phase launch into the model: the
///   restored (or initial) tree is in ``tree`` as soon as it is decoded, and each
///   restored screen's ``RestorableScreen/restorationDidFinish(_:)`` is applied
///   to it when the restoration extensions end;
/// - ``restoredInterfaceDidAppear()`` ends crash-loop protection once the
///   window shows the restored screens;
/// - ``handle(_:)`` takes the app's phase and saves on ``AppPhase/inactive``,
///   ``AppPhase/background`` and ``AppPhase/terminate``, coalesced, within the
///   background time a ``BackgroundTime`` gives.
///
/// Every screen that comes into the tree (restored, initial, or added later by
/// the app) passes through the hooks registered with ``prepare(_:_:)`` before the
/// UI sees it: the one place where screens get their services.
@MainActor
public final class RestorationModel<Delegate: RestorationDelegate>: RestorationHost, Observable {
    /// The coordinator that restores and saves the model's tree.
    public nonisolated let coordinator: RestorationCoordinator<Delegate>
    /// The background time the model asks for around the saves it starts for
    /// ``AppPhase/background`` and ``AppPhase/terminate``; nil runs them without.
    public var backgroundTime: (any BackgroundTime)?

    private let registrar = ObservationRegistrar()
    private var storage: ScreenTree
    /// The preparation hooks, by screen type.
    private var preparations: [ObjectIdentifier: (inout any RestorableScreen, ScreenArrival) -> Void] = [:]
    /// The nodes that have passed through the preparation hooks.
    private var prepared: Set<ScreenNode.ID> = []
    /// Whether the next tree with a new root is the one a launch hands over.
    private var awaitingHandover = false
    private var saves = PhaseSaves()

    /// Creates the model of a window whose coordinator is already made (by
    /// ``RestorationScenes/coordinator(for:)``, say), starting with the
    /// declaration's initial hierarchy until ``launch()``.
    ///
    /// - Parameters:
    ///   - coordinator: The window's coordinator.
    ///   - backgroundTime: The background time to ask for around saves.
    /// - Throws: ``DeclarationError`` when the declaration has errors.
    public init(coordinator: RestorationCoordinator<Delegate>, backgroundTime: (any BackgroundTime)? = nil)
        throws(DeclarationError)
    {
        self.coordinator = coordinator
        self.backgroundTime = backgroundTime
        self.storage = try coordinator.declaration.makeInitialTree()
    }

    /// Creates the model of a window with a coordinator of its own, starting with
    /// the declaration's initial hierarchy until ``launch()``.
    ///
    /// - Parameters:
    ///   - screens: The window's screen declaration.
    ///   - store: Where the archive is kept.
    ///   - delegate: The app's part in saving and restoring.
    ///   - configuration: App version, store key, extension timeout, clock.
    ///   - backgroundTime: The background time to ask for around saves.
    /// - Throws: ``DeclarationError`` when the declaration has errors.
    public convenience init(
        screens: ScreenDeclaration, store: any RestorationStore, delegate: Delegate,
        configuration: RestorationConfiguration = RestorationConfiguration(),
        backgroundTime: (any BackgroundTime)? = nil
    ) throws(DeclarationError) {
        try self.init(
            coordinator: RestorationCoordinator(
                screens: screens, store: store, delegate: delegate, configuration: configuration),
            backgroundTime: backgroundTime)
    }

    // MARK: The tree

    /// The window's hierarchy.
    ///
    /// Reading it observes the whole tree; a view that shows one part of it reads
    /// a projection instead. Setting it runs the preparation hooks on the screens
    /// that are new to it, then tells the observers of the parts that changed. A
    /// set that changes no node's state or structure (the same path written back,
    /// a screen's service replaced) tells no observer.
    public var tree: ScreenTree {
        get {
            registrar.access(self, keyPath: \.tree)
            return storage
        }
        set {
            var new = newValue
            let handover = prepareArrivals(in: &new)
            let parts = ObservedPart.changes(from: storage, to: new)
            let newRoot = new.root.id != storage.root.id
            guard newRoot || !parts.isEmpty else {
                storage = new
                return
            }
            registrar.willSet(self, keyPath: \.tree)
            if newRoot { registrar.willSet(self, keyPath: \.rootID) }
            if handover { registrar.willSet(self, keyPath: \.isLaunched) }
            for part in parts { registrar.willSet(self, keyPath: \.[observing: part]) }
            storage = new
            if handover { launched = true }
            for part in parts { registrar.didSet(self, keyPath: \.[observing: part]) }
            if handover { registrar.didSet(self, keyPath: \.isLaunched) }
            if newRoot { registrar.didSet(self, keyPath: \.rootID) }
            registrar.didSet(self, keyPath: \.tree)
        }
    }

    /// The identity of the tree's root, which changes when a launch hands its tree
    /// over, and never while the user navigates: what a view keys the
    /// restored-interface call on.
    ///
    /// ```swift
    /// RootView(model: model)
    ///     .task(id: model.rootID) { await model.restoredInterfaceDidAppear() }
    /// ```
    public var rootID: ScreenNode.ID {
        registrar.access(self, keyPath: \.rootID)
        return storage.root.id
    }

    /// Whether the launch has handed its tree over: from then on ``tree`` is the
    /// restored one (or the fresh one the launch made), and what the user does in
    /// it is saved. Show the window's screens once it is true: changes made to the
    /// initial tree before it are replaced by the launch's tree.
    ///
    /// ```swift
    /// if model.isLaunched { MailRoot(model: model) } else { Color.clear }
    /// ```
    public var isLaunched: Bool {
        registrar.access(self, keyPath: \.isLaunched)
        return launched
    }
    /// Set by the tree's setter at the handover, which tells the observers of ``isLaunched``.
    private var launched = false

    /// The key path a projection observes one part of a node through.
    subscript(observing part: ObservedPart) -> Int { 0 }

    /// Finds a node for a projection's getter, observing the parts of it the
    /// projection shows; when there is none, observes the whole tree, so the getter
    /// runs again once it appears.
    ///
    /// A change that removes the node tells every observer of its parts. A
    /// reference by path or identifier also observes the children of every node
    /// above it, whose change can make the reference name another node (or several).
    func observedNode(_ reference: NodeReference, _ aspects: [ObservedPart.Aspect]) -> ScreenTree.Visit? {
        guard let visit = try? storage.resolve(reference) else {
            registrar.access(self, keyPath: \.tree)
            return nil
        }
        if !reference.namesNode {
            var node = storage.root
            for step in visit.address {
                registrar.access(self, keyPath: \.[observing: ObservedPart(node: node.id, aspect: .children)])
                switch step {
                case .child(let index): node = node.children[index]
                case .presented: node = node.presentedStorage[0]
                }
            }
        }
        for aspect in aspects {
            registrar.access(self, keyPath: \.[observing: ObservedPart(node: visit.node.id, aspect: aspect)])
        }
        return visit
    }

    /// The tree as it is, without observing it.
    var currentTree: ScreenTree { storage }

    // MARK: Preparing screens

    /// Registers the hook that prepares every screen of a type that comes into the
    /// tree: restored by the launch, made from the declaration, or pushed,
    /// presented or added later by the app. The one place where screens get their
    /// services.
    ///
    /// The hook runs on the screen before the tree holding it is set, so the UI
    /// never sees an unprepared screen. Screens of the type already in the tree are
    /// prepared at once, told ``ScreenArrival/restored`` or ``ScreenArrival/initial``
    /// (register hooks before ``launch()`` to be told each arrival as it happens). A
    /// second hook for the same type replaces the first.
    ///
    /// ```swift
    /// model.prepare(ThreadScreen.self) { screen, arrival in
    ///     screen.mail = services.mail
    ///     if arrival == .restored { screen.needsRefresh = true }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - type: The screen type.
    ///   - body: Prepares one screen, told how it came into the tree.
    public func prepare<S: RestorableScreen>(
        _ type: S.Type, _ body: @escaping @MainActor (inout S, ScreenArrival) -> Void
    ) {
        let hook: (inout any RestorableScreen, ScreenArrival) -> Void = { screen, arrival in
            guard var typed = screen as? S else { return }
            body(&typed, arrival)
            screen = typed
        }
        preparations[ObjectIdentifier(S.self)] = hook
        var current = storage
        let present = current.nodes.filter { $0.node.screen is S }
        guard !present.isEmpty else { return }
        for entry in present {
            try? current.modify(.node(entry.id)) { (node, _) in
                guard var screen = node.screen else { return }
                hook(&screen, node.wasRestored ? .restored : .initial)
                node.screen = screen
            }
            prepared.insert(entry.id)
        }
        tree = current
    }

    /// Runs the preparation hooks on the screens new to the model, and records
    /// every node of `new` as prepared.
    /// Returns whether `new` is the tree the running launch hands over.
    private func prepareArrivals(in new: inout ScreenTree) -> Bool {
        let handover = awaitingHandover && new.root.id != storage.root.id
        if handover { awaitingHandover = false }
        guard !preparations.isEmpty else { return handover }
        var arrivals: [(address: [NodeStep], id: ScreenNode.ID)] = []
        new.walk { visit in
            guard !prepared.contains(visit.node.id), let screen = visit.node.screen,
                preparations[ObjectIdentifier(Swift.type(of: screen))] != nil
            else { return }
            arrivals.append((visit.address, visit.node.id))
        }
        for arrival in arrivals {
            try? new.root.modify(at: arrival.address[...]) { node in
                guard var screen = node.screen, let hook = preparations[ObjectIdentifier(Swift.type(of: screen))]
                else { return }
                hook(&screen, node.wasRestored ? .restored : handover ? .initial : .added)
                node.screen = screen
            }
        }
        prepared = []
        new.root.forEachNodeValue { prepared.insert($0.id) }
        return handover
    }

    // MARK: Observed state

    /// The report of the last launch; nil before ``launch()`` returns.
    public private(set) var launchReport: LaunchReport? {
        get {
            registrar.access(self, keyPath: \.launchReport)
            return storedLaunchReport
        }
        set { registrar.withMutation(of: self, keyPath: \.launchReport) { storedLaunchReport = newValue } }
    }
    private var storedLaunchReport: LaunchReport?

    /// Whether a launch is under way: from ``launch()`` until its restoration
    /// extensions end. The restored screens are in ``tree`` meanwhile; a screen may
    /// show that its data is still loading.
    public private(set) var isRestoring: Bool {
        get {
            registrar.access(self, keyPath: \.isRestoring)
            return storedIsRestoring
        }
        set { registrar.withMutation(of: self, keyPath: \.isRestoring) { storedIsRestoring = newValue } }
    }
    private var storedIsRestoring = false

    /// The phase ``handle(_:)`` was last given; nil before the first.
    public private(set) var phase: AppPhase? {
        get {
            registrar.access(self, keyPath: \.phase)
            return storedPhase
        }
        set { registrar.withMutation(of: self, keyPath: \.phase) { storedPhase = newValue } }
    }
    private var storedPhase: AppPhase?

    /// The report of the last save that returned one; nil before.
    public private(set) var lastSaveReport: SaveReport? {
        get {
            registrar.access(self, keyPath: \.lastSaveReport)
            return storedLastSaveReport
        }
        set { registrar.withMutation(of: self, keyPath: \.lastSaveReport) { storedLastSaveReport = newValue } }
    }
    private var storedLastSaveReport: SaveReport?

    /// Why the last save failed, or nil when it succeeded (or none ran). A failed
    /// save wrote nothing: the previous archive is whole.
    public private(set) var lastSaveError: (any Error)? {
        get {
            registrar.access(self, keyPath: \.lastSaveError)
            return storedLastSaveError
        }
        set { registrar.withMutation(of: self, keyPath: \.lastSaveError) { storedLastSaveError = newValue } }
    }
    private var storedLastSaveError: (any Error)?

    /// What a projection's setter last refused, naming the node; nil before. A
    /// binding's setter cannot throw, so this is where a change the tree does not
    /// accept (a stale path, an undeclared screen) shows. Set it to nil once shown
    /// (an alert's dismissal), so the next refusal is told apart.
    ///
    /// ```swift
    /// .alert("Not possible", isPresented: Binding(get: { model.lastRefusal != nil }, set: { _ in model.lastRefusal = nil })) {}
    /// ```
    public var lastRefusal: HierarchyError? {
        get {
            registrar.access(self, keyPath: \.lastRefusal)
            return storedLastRefusal
        }
        set { registrar.withMutation(of: self, keyPath: \.lastRefusal) { storedLastRefusal = newValue } }
    }
    private var storedLastRefusal: HierarchyError?

    /// Records what a projection's setter refused.
    func refuse(_ error: HierarchyError) {
        lastRefusal = error
    }

    // MARK: Launching

    /// Restores the window's hierarchy into the model, or starts it fresh: the
    /// coordinator's ``RestorationCoordinator/launch(into:)``.
    ///
    /// The restored tree is in ``tree`` as soon as it is decoded, before this
    /// method returns; the method returns when the restoration extensions have
    /// ended and ``RestorableScreen/restorationDidFinish(_:)`` was applied to the
    /// restored screens still in the tree.
    ///
    /// ```swift
    /// .task { try? await model.launch() }
    /// ```
    ///
    /// - Returns: What happened, with every extension's outcome.
    /// - Throws: ``DeclarationError`` when the declaration has errors; the tree is
    ///   not changed then.
    @discardableResult
    public func launch() async throws(DeclarationError) -> LaunchReport {
        isRestoring = true
        awaitingHandover = true
        defer {
            isRestoring = false
            awaitingHandover = false
        }
        let report = try await coordinator.launch(into: self)
        launchReport = report
        return report
    }

    /// Tells the coordinator that the window shows the restored tree, which ends
    /// crash-loop protection: see ``RestorationCoordinator/restoredInterfaceDidAppear()``.
    ///
    /// ```swift
    /// RootView(model: model)
    ///     .task(id: model.rootID) { await model.restoredInterfaceDidAppear() }
    /// ```
    public func restoredInterfaceDidAppear() async {
        await coordinator.restoredInterfaceDidAppear()
    }

    // MARK: Saving

    /// Saves the tree now, after each screen captured its live state into it, as
    /// ``RestorationCoordinator/save(_:)-(RestorationHost)`` does.
    ///
    /// ``handle(_:)`` saves on its own as the app leaves the foreground; call this
    /// for a save the app decides on, such as after the user sends a message.
    ///
    /// - Returns: What was saved.
    /// - Throws: ``RestorationError/Code/saveBeforeLaunch`` before the launch handed
    ///   its tree over, or what ``RestorationCoordinator/save(_:)-(ScreenTree)``
    ///   throws; nothing was written then.
    @discardableResult
    public func save() async throws -> SaveReport {
        do {
            guard launched else {
                throw RestorationError(
                    .saveBeforeLaunch,
                    message:
                        "not saved: the model has not launched, and its initial tree would replace the saved archive")
            }
            var captured = storage
            captured.captureLiveState()
            if captured != storage { tree = captured }
            // Counted before the hop to the coordinator, so a phase's save that checks meanwhile
            // knows a save of this tree is coming.
            saves.underWay += 1
            defer { saves.underWay -= 1 }
            let report = try await coordinator.save(captured)
            lastSaveReport = report
            lastSaveError = nil
            return report
        } catch {
            lastSaveError = error
            throw error
        }
    }

    /// Takes the app's phase, from SwiftUI's `scenePhase` or a UIKit scene
    /// delegate, and saves when the app leaves the foreground.
    ///
    /// ``AppPhase/inactive``, ``AppPhase/background`` and ``AppPhase/terminate``
    /// each ask for a save; ``AppPhase/active`` asks for none. The saves run one
    /// at a time, in a task the model keeps (``savesFinished()`` waits for it):
    ///
    /// - requests made before the running save starts are one save;
    /// - a request made while a save runs is one more save after it;
    /// - the background save that follows the inactive save of the same trip out
    ///   of the foreground writes unless the archive already holds the tree (the
    ///   last archive written, by that save or by one the app made since, holds an
    ///   equal tree, no save is under way, and the archive holds nothing else: no
    ///   shared objects, no app-wide state): going inactive then to the background
    ///   saves once;
    /// - ``AppPhase/inactive`` saves on the way out of the foreground, not on the
    ///   way back in from ``AppPhase/background`` (SwiftUI passes through it);
    /// - phases before the launch handed its tree over save nothing: the archive
    ///   being restored stays.
    ///
    /// Every phase is also passed to the coordinator at once, before the handover
    /// too (``RestorationCoordinator/appPhaseDidChange(to:)``): a launch the user
    /// leaves before its restoration is over keeps its archive if the system then
    /// ends the app in the background.
    ///
    /// ``AppPhase/terminate`` is best effort: the save runs in a task, and the
    /// system ends the process soon after `applicationWillTerminate(_:)` returns;
    /// the saves on inactive and background are the ones to count on.
    ///
    /// For ``AppPhase/background`` and ``AppPhase/terminate`` the model asks
    /// ``backgroundTime`` for time at once, before this method returns (the
    /// platform suspends the app soon after the scene delegate returns), and gives
    /// it back when the saves end. If the time runs out first, the save is
    /// cancelled before it writes: the previous archive stays whole, and
    /// ``lastSaveError`` is ``RestorationError/Code/cancelled``.
    ///
    /// ```swift
    /// .onChange(of: scenePhase) { _, phase in model.handle(AppPhase(phase)) }
    /// ```
    ///
    /// - Parameter phase: The phase the app entered.
    public func handle(_ phase: AppPhase) {
        let previous = self.phase
        self.phase = phase
        // At once, before any save: a launch still restoring must not leave a crash marker behind
        // in the background, where the system may end the app.
        coordinator.appPhaseDidChange(to: phase)
        // Before the handover there is nothing of the user's to save: the archive being restored stays.
        guard launched else { return }
        switch phase {
        case .active:
            saves.resignedThisTrip = false
            return
        case .inactive:
            // Only on the way out of the foreground: SwiftUI also passes through inactive on the way in.
            guard previous != .background else { return }
        case .background, .terminate:
            if saves.backgroundTask == nil, let backgroundTime {
                saves.backgroundTask = backgroundTime.begin("Save the window's state") { [weak self] in
                    self?.backgroundTimeExpired()
                }
            }
        }
        saves.requested = phase
        guard saves.task == nil else { return }
        saves.task = Task { [weak self] in await self?.runRequestedSaves() }
    }

    /// Waits until the saves ``handle(_:)`` started have ended.
    public func savesFinished() async {
        while let task = saves.task { await task.value }
    }

    /// Runs the requested saves one at a time until none is requested.
    private func runRequestedSaves() async {
        while let phase = saves.requested, !Task.isCancelled {
            saves.requested = nil
            await saveForPhase(phase)
        }
        saves.task = nil
        // A request made after the background time expired runs in a task of its own.
        if saves.requested != nil {
            saves.task = Task { [weak self] in await self?.runRequestedSaves() }
        } else {
            endBackgroundTime()
        }
    }

    /// One save for a phase; skipped when it follows the inactive save of the same
    /// trip out of the foreground and the archive already holds the tree.
    private func saveForPhase(_ phase: AppPhase) async {
        if phase != .inactive, saves.resignedThisTrip, saves.underWay == 0 {
            var captured = storage
            captured.captureLiveState()
            if captured != storage { tree = captured }
            if await coordinator.archiveHolds(captured) { return }
        }
        do {
            let report = try await save()
            if phase == .inactive { saves.resignedThisTrip = report.saved }
        } catch {
            // Recorded in lastSaveError; the previous archive is whole.
        }
    }

    /// The background time ran out: the running save stops before it writes.
    private func backgroundTimeExpired() {
        saves.requested = nil
        saves.task?.cancel()
        endBackgroundTime()
    }

    private func endBackgroundTime() {
        guard let task = saves.backgroundTask else { return }
        saves.backgroundTask = nil
        backgroundTime?.end(task)
    }
}

extension RestorationModel where Delegate == DefaultRestorationDelegate {
    /// Creates the model of a window whose coordinator takes every delegate default.
    ///
    /// ```swift
    /// let model = try RestorationModel(screens: screens, store: FileStore(directory: url))
    /// ```
    ///
    /// - Parameters:
    ///   - screens: The window's screen declaration.
    ///   - store: Where the archive is kept.
    ///   - configuration: App version, store key, extension timeout, clock.
    ///   - backgroundTime: The background time to ask for around saves.
    /// - Throws: ``DeclarationError`` when the declaration has errors.
    public convenience init(
        screens: ScreenDeclaration, store: any RestorationStore,
        configuration: RestorationConfiguration = RestorationConfiguration(),
        backgroundTime: (any BackgroundTime)? = nil
    ) throws(DeclarationError) {
        try self.init(
            screens: screens, store: store, delegate: DefaultRestorationDelegate(), configuration: configuration,
            backgroundTime: backgroundTime)
    }
}

/// The saves a model runs for its phases, one at a time.
struct PhaseSaves {
    /// The task running the saves, if any.
    var task: Task<Void, Never>?
    /// The phase whose save waits to start, if any.
    var requested: AppPhase?
    /// The background time held while saves run.
    var backgroundTask: Int?
    /// Whether the inactive save of the current trip out of the foreground wrote the archive.
    var resignedThisTrip = false
    /// How many calls of ``RestorationModel/save()`` have not returned yet.
    var underWay = 0
}
