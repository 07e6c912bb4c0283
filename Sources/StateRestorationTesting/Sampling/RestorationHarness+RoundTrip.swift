public import StateRestoration
public import Testing

extension RestorationHarness {
    /// Saves a sample of every screen type the declaration names, at every place
    /// the declaration puts it, relaunches, and records an issue for each sample
    /// that does not come back equal.
    ///
    /// Samples come from the type's ``RestorationSampling/restorationSamples`` and
    /// from `samples`; a type with neither is checked with its initial instance
    /// when the declaration gives one, and reported as ``ScreenRoundTripFailure/Kind/noSample``
    /// otherwise. Each sample is placed alone, in a hierarchy made from the
    /// declaration's initial one: a tab or a stack's root is replaced, a pushable
    /// screen is pushed, a presentable one presented, a container's child added
    /// (the screens above it on the way get their type's first sample). Each
    /// check is its own save and relaunch, so one bad screen cannot hide another.
    /// Elements without an identifier are never saved, and are not checked.
    ///
    /// ```swift
    /// @Test func everyScreenSurvivesARelaunch() async throws {
    ///     try await RestorationHarness(screens: AppScreens.declaration).expectEveryScreenRoundTrips(
    ///         samples: [ReceiptScreen(state: .init(orderID: "o-1"))])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - samples: Instances to check besides the types' own samples, for types
    ///     that do not conform to ``RestorationSampling``.
    ///   - sourceLocation: Where the issues are reported; the caller's line.
    /// - Returns: Every failure, also recorded as an issue; empty when every
    ///   screen round-trips.
    /// - Throws: `DeclarationError` when the declaration has errors.
    @discardableResult
    public func expectEveryScreenRoundTrips(
        samples: [any RestorableScreen] = [], sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [ScreenRoundTripFailure] {
        let failures = try await everyScreenRoundTripFailure(samples: samples)
        for failure in failures {
            Issue.record(Comment(rawValue: failure.description), sourceLocation: sourceLocation)
        }
        return failures
    }

    /// Runs the check of ``expectEveryScreenRoundTrips(samples:sourceLocation:)``
    /// and returns the failures without recording issues, for a test that
    /// inspects them itself.
    ///
    /// ```swift
    /// let failures = try await harness.everyScreenRoundTripFailure()
    /// #expect(failures.map(\.typeKey) == ["legacy-map"])
    /// ```
    ///
    /// - Parameter samples: Instances to check besides the types' own samples.
    /// - Returns: Every failure; empty when every screen round-trips.
    /// - Throws: `DeclarationError` when the declaration has errors.
    public func everyScreenRoundTripFailure(
        samples: [any RestorableScreen] = []
    ) async throws -> [ScreenRoundTripFailure] {
        let initialTree = try declaration.makeInitialTree()
        guard let root = declaration.root, let rootID = root.identifier else { return [] }
        var locations: [SampleLocation] = []
        SampleLocation.collect(root, path: IdentifierPath([rootID]), setup: [], place: .initial, into: &locations)

        var failures: [ScreenRoundTripFailure] = []
        for location in locations {
            var tree = initialTree
            do {
                for step in location.setup {
                    try step.apply(to: &tree) { samplesOf($0, explicit: samples).first }
                }
            } catch {
                failures.append(location.failure(.notPlaced, "cannot build the screens above it: \(error)"))
                continue
            }
            var checked = samplesOf(location.type, explicit: samples)
            if checked.isEmpty, location.place == .initial, let initial = tree.node(at: location.path)?.screen {
                checked = [initial]
            }
            if checked.isEmpty {
                failures.append(
                    location.failure(
                        .noSample,
                        "\(location.type) has no sample: conform it to RestorationSampling or pass one in `samples`"))
                continue
            }
            for sample in checked {
                if let failure = try await check(sample, at: location, in: tree) { failures.append(failure) }
            }
        }
        return failures
    }

    /// Saves `tree` with `sample` placed, relaunches, and compares.
    private func check(
        _ sample: any RestorableScreen, at location: SampleLocation, in base: ScreenTree
    ) async throws -> ScreenRoundTripFailure? {
        var tree = base
        do {
            try location.place.put(sample, into: &tree, at: location.path)
        } catch {
            return location.failure(.notPlaced, "cannot place \(describe(sample)): \(error)")
        }
        // The app's save lets the screen capture its live state first; what it captured is what
        // must come back.
        tree = await MainActor.run { [tree] in
            var captured = tree
            captured.captureLiveState()
            return captured
        }
        let sample = tree.node(at: location.path)?.screen ?? sample
        let relaunched: Relaunch
        do {
            relaunched = try await relaunch(saving: tree)
        } catch let error as DeclarationError {
            throw error
        } catch {
            return location.failure(.saveFailed, "saving \(describe(sample)) threw: \(error)")
        }
        let report = relaunched.report
        if report.outcome == .fresh {
            return location.failure(
                .freshLaunch,
                "the relaunch with \(describe(sample)) started fresh: \(report.freshReason?.message ?? "no reason given")"
            )
        }
        if let skipped = report.skipped.first(where: { $0.path == location.path }) {
            return location.failure(
                .skipped, "\(describe(sample)) was not restored (\(skipped.reason)): \(skipped.message)")
        }
        guard let restored = relaunched.tree.node(at: location.path)?.screen else {
            return location.failure(
                .skipped, "\(describe(sample)) is missing from the restored hierarchy, and the report does not say why")
        }
        guard restored.isEqual(to: sample) else {
            let change =
                Swift.type(of: restored) == Swift.type(of: sample)
                ? "saved \(describe(sample)), restored \(describe(restored))"
                : "saved a \(Swift.type(of: sample)), restored a \(Swift.type(of: restored))"
            return location.failure(.changed, "it came back changed: \(change)")
        }
        return nil
    }
}

/// The samples of a type: its own, then those passed in.
private func samplesOf(_ type: any RestorableScreen.Type, explicit: [any RestorableScreen]) -> [any RestorableScreen] {
    func own<S: RestorationSampling>(_ type: S.Type) -> [any RestorableScreen] { S.restorationSamples }
    var samples: [any RestorableScreen] = []
    if let sampling = type as? any RestorationSampling.Type { samples = own(sampling) }
    samples += explicit.filter { Swift.type(of: $0) == type }
    return samples
}

/// A screen's state as Swift prints it.
private func describe(_ screen: any RestorableScreen) -> String {
    func state<S: RestorableScreen>(_ screen: S) -> String { String(describing: screen.state) }
    return state(screen)
}

/// A place the declaration puts a screen type, and how to get a sample there.
private struct SampleLocation {
    /// How a screen gets into the hierarchy.
    enum Place: Equatable {
        /// It is there on a fresh launch (or once the setup ran); the sample replaces it.
        case initial
        /// Pushed onto the stack at a path, as a declared identifier.
        case push(onto: IdentifierPath, id: String)
        /// Presented over the node at a path, as a declared identifier.
        case present(over: IdentifierPath, id: String)
        /// Added to the container at a path, under an identifier.
        case addChild(to: IdentifierPath, id: String)

        static func == (lhs: Place, rhs: Place) -> Bool {
            switch (lhs, rhs) {
            case (.initial, .initial): true
            case (.push(let a, let b), .push(let c, let d)): a == c && b == d
            case (.present(let a, let b), .present(let c, let d)): a == c && b == d
            case (.addChild(let a, let b), .addChild(let c, let d)): a == c && b == d
            default: false
            }
        }

        func put(_ screen: any RestorableScreen, into tree: inout ScreenTree, at path: IdentifierPath) throws {
            func put<S: RestorableScreen>(_ screen: S) throws {
                switch self {
                case .initial: try tree.update(S.self, at: NodeReference(path)) { $0 = screen }
                case .push(let stack, let id): try tree.push(screen, onto: NodeReference(stack), id: id)
                case .present(let presenter, let id): try tree.present(screen, over: NodeReference(presenter), id: id)
                case .addChild(let container, let id): try tree.addChild(screen, id: id, to: NodeReference(container))
                }
            }
            try put(screen)
        }
    }

    /// One step that makes an ancestor exist.
    enum Step {
        /// Put a screen of a type (its first sample) at a path.
        case place(Place, any RestorableScreen.Type, IdentifierPath)
        /// Present a declared stack, tabs or container over the node at a path.
        case presentDeclared(id: String, over: IdentifierPath)

        func apply(
            to tree: inout ScreenTree, sample: (any RestorableScreen.Type) -> (any RestorableScreen)?
        ) throws {
            switch self {
            case .place(let place, let type, let path):
                guard place != .initial else { return }
                guard let screen = sample(type) else {
                    throw HarnessError("\(type.typeKey) at \(path) has no sample to stand above it")
                }
                try place.put(screen, into: &tree, at: path)
            case .presentDeclared(let id, let presenter):
                try tree.presentDeclared(id, over: NodeReference(presenter))
            }
        }
    }

    var type: any RestorableScreen.Type
    var path: IdentifierPath
    var setup: [Step]
    var place: Place

    func failure(_ kind: ScreenRoundTripFailure.Kind, _ message: String) -> ScreenRoundTripFailure {
        ScreenRoundTripFailure(typeKey: type.typeKey, path: path, kind: kind, message: message)
    }

    /// Lists every place under `node` (itself included) where a screen can be checked.
    static func collect(
        _ node: DeclarationNode, path: IdentifierPath, setup: [Step], place: Place, presentsDeclared: Bool = false,
        into locations: inout [SampleLocation]
    ) {
        var existing = setup
        if let type = node.screenType {
            locations.append(SampleLocation(type: type, path: path, setup: setup, place: place))
            existing.append(.place(place, type, path))
        } else if presentsDeclared, let id = node.identifier, let presenter = path.parent {
            existing.append(.presentDeclared(id: id, over: presenter))
        }
        switch node.kind {
        case .screen:
            break
        case .stack:
            if let rootNode = node.children.first, let id = rootNode.identifier {
                collect(rootNode, path: path.appending("\(id)#0"), setup: existing, place: .initial, into: &locations)
            }
            for pushable in node.pushable {
                guard let id = pushable.identifier else { continue }
                collect(
                    pushable, path: path.appending("\(id)#1"), setup: existing, place: .push(onto: path, id: id),
                    into: &locations)
            }
        case .tabs:
            for tab in node.children {
                guard let id = tab.identifier else { continue }
                collect(tab, path: path.appending(id), setup: existing, place: .initial, into: &locations)
            }
        case .container:
            for child in node.children {
                guard let id = child.identifier else { continue }
                collect(
                    child, path: path.appending(id), setup: existing, place: .addChild(to: path, id: id),
                    into: &locations)
            }
        }
        for presentable in node.presentable {
            guard let id = presentable.identifier else { continue }
            // A screen or a custom container is presented as a sample; a stack or tabs, which have
            // no screen of their own, as declared, with their initial screens.
            if presentable.screenType != nil {
                collect(
                    presentable, path: path.appending(id), setup: existing, place: .present(over: path, id: id),
                    into: &locations)
            } else {
                collect(
                    presentable, path: path.appending(id), setup: existing, place: .initial, presentsDeclared: true,
                    into: &locations)
            }
        }
    }
}
