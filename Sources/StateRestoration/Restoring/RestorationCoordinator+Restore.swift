import Foundation

extension RestorationCoordinator {
    /// What one launch's restoration walk collects.
    struct Restoration {
        let info: ArchiveInfo
        let extensions: RestorationExtensions
        /// The registered shared objects, restored before any screen.
        let objects: [String: any RestorableObject]
        /// How long ago the archive was saved (never negative).
        let archiveAge: Duration
        var skipped: [SkippedScreen] = []
        var migrated: [LaunchReport.MigratedScreen] = []

        init(info: ArchiveInfo, extensions: RestorationExtensions, objects: [String: any RestorableObject], now: Date) {
            self.info = info
            self.extensions = extensions
            self.objects = objects
            self.archiveAge = .seconds(max(0, now.timeIntervalSince(info.savedAt)))
        }

        /// Records every saved node under `node` (itself included) as skipped.
        mutating func skipSubtree(
            _ node: ArchivedNode, at path: IdentifierPath, _ reason: SkippedScreen.Reason, _ message: String
        ) {
            skipped.append(SkippedScreen(path: path, reason: reason, message: message))
            for child in (node.children ?? []) + (node.presented ?? []) {
                skipSubtree(
                    child, at: path.appending(child.id), .ancestorSkipped, "\(path), above it, was not restored")
            }
        }

        /// The identities and paths of the restored screens, in tree order, from one walk.
        func restoredScreens(in tree: ScreenTree) -> [(id: ScreenNode.ID, path: IdentifierPath?)] {
            var restored: [(id: ScreenNode.ID, path: IdentifierPath?)] = []
            tree.walk { visit in if visit.node.wasRestored { restored.append((visit.node.id, visit.path)) } }
            return restored
        }
    }

    /// Re-creates one saved node and everything under it, top-down; nil when the
    /// node cannot be restored (the reason is recorded).
    func restore(
        _ archived: ArchivedNode, declared: DeclarationNode, path: IdentifierPath, into restoration: inout Restoration
    ) async -> ScreenNode? {
        guard archived.kind == declared.kind else {
            restoration.skipSubtree(
                archived, at: path, .notDeclared,
                "saved as a \(archived.kind.rawValue), but \(path) is declared as a \(declared.kind.rawValue)")
            return nil
        }
        var node: ScreenNode
        switch declared.kind {
        case .screen, .container:
            guard let screen = await restoreScreen(archived, declared: declared, path: path, into: &restoration) else {
                return nil
            }
            node = ScreenNode(declaration: declared, identifier: declared.identifier, screen: screen)
            node.wasRestored = true
            if declared.kind == .container {
                await restoreContainerChildren(archived, declared: declared, path: path, into: &node, &restoration)
            }
        case .stack:
            guard let stack = await restoreStack(archived, declared: declared, path: path, into: &restoration) else {
                return nil
            }
            node = stack
        case .tabs:
            node = await restoreTabs(archived, declared: declared, path: path, into: &restoration)
        }
        if let presented = archived.presented?.first {
            let presentedPath = path.appending(presented.id)
            if let presentable = declared.presentable.first(where: { $0.identifier == presented.id }) {
                node.presented = await restore(
                    presented, declared: presentable, path: presentedPath, into: &restoration)
            } else {
                restoration.skipSubtree(
                    presented, at: presentedPath, .notDeclared,
                    "\(path) declares no presentable element \(presented.id)")
            }
        }
        return node
    }

    private func restoreScreen(
        _ archived: ArchivedNode, declared: DeclarationNode, path: IdentifierPath, into restoration: inout Restoration
    ) async -> (any RestorableScreen)? {
        guard let declaredType = declared.screenType, let typeKey = archived.type, let state = archived.state else {
            restoration.skipSubtree(archived, at: path, .malformed, "the saved screen has no type key or no state")
            return nil
        }
        guard typeKey == declaredType.typeKey else {
            if declaration.screenTypes[typeKey] == nil {
                restoration.skipSubtree(
                    archived, at: path, .unknownType,
                    "the archive names type key \(typeKey), which no declared screen has")
            } else {
                restoration.skipSubtree(
                    archived, at: path, .notDeclared,
                    "saved as \(typeKey), but \(path) is declared as \(declaredType.typeKey)")
            }
            return nil
        }
        return await makeScreen(declaredType, archived: archived, state: state, path: path, into: &restoration)
    }

    /// Decodes a state and makes its screen: the type's factory first, the
    /// delegate second; then the screen decodes its state.
    ///
    /// A screen skipped here is recorded with everything under it (what was
    /// presented over it, a container's children), none of which comes back.
    private func makeScreen<S: RestorableScreen>(
        _ type: S.Type, archived: ArchivedNode, state data: Data, path: IdentifierPath,
        into restoration: inout Restoration
    ) async -> (any RestorableScreen)? {
        let version = archived.version
        func skip(_ reason: SkippedScreen.Reason, _ message: String) {
            restoration.skipSubtree(archived, at: path, reason, message)
        }
        if let maximumAge = S.maximumStateAge, restoration.archiveAge > maximumAge {
            skip(
                .stale,
                "\(S.typeKey) allows states up to \(maximumAge.formatted) old; this one is \(restoration.archiveAge.formatted)"
            )
            return nil
        }
        let state: S.State
        do {
            state = try decodeState(S.self, from: data, version: version ?? S.stateVersion, path: path, &restoration)
        } catch let skipped as SkippedScreen {
            skip(skipped.reason, skipped.message)
            return nil
        } catch {
            skip(.decodeFailed, "\(S.self).State did not decode: \(error)")
            return nil
        }
        var screen: S
        if let factory = S.restorationFactory {
            guard let made = factory.make(path, state) else {
                skip(.factoryReturnedNil, "\(S.self)'s restoration factory returned nil")
                return nil
            }
            screen = made
        } else {
            let request = ScreenRequest(
                identifierPath: path, archiveInfo: restoration.info, screenType: S.self, state: state)
            guard let made = await delegate.screen(forIdentifierPath: path, request: request) else {
                skip(.delegateReturnedNil, "the delegate returned no screen for \(path)")
                return nil
            }
            guard let typed = made as? S else {
                skip(
                    .wrongScreenType, "the delegate returned a \(Swift.type(of: made)) for \(path), not a \(S.self)")
                return nil
            }
            screen = typed
        }
        screen.decodeRestorableState(
            state,
            context: RestorationContext(
                identifierPath: path, archiveInfo: restoration.info, extensions: restoration.extensions,
                objects: restoration.objects))
        return screen
    }

    /// Gives each registered shared object its saved state, before any screen is
    /// made; returns the identifiers restored, and notes what was not.
    ///
    /// An object the windows share (one of `sharedIdentifiers`) that an older build saved
    /// in this window's archive is left alone: it was restored from the shared archive.
    func restoreObjects(
        _ archived: [ArchivedObject], sharedIdentifiers: Set<String>, notes: inout [String]
    ) async -> [String] {
        await ArchivedObject.restore(archived, into: objects, kind: "object", notes: &notes) { saved in
            sharedIdentifiers.contains(saved.id)
                ? "the archive holds object \(saved.id) (\(saved.type)), which the windows share: it comes from the shared objects' archive, not from this window's"
                : "the archive holds object \(saved.id) (\(saved.type)), but no object is registered under that identifier"
        }
    }

    /// Decodes a saved state of the current version, or migrates an older one
    /// through the screen type's chain of migrations, checked whole before any
    /// step runs.
    private func decodeState<S: RestorableScreen>(
        _ type: S.Type, from data: Data, version: Int, path: IdentifierPath, _ restoration: inout Restoration
    ) throws -> S.State {
        let decoder = ArchiveDecoder()
        if version == S.stateVersion {
            return try decoder.decode(S.State.self, from: data)
        }
        let chain: StateMigrationChain<S.State>
        switch StateMigrationChain.from(version, to: S.stateVersion, in: S.stateMigrations) {
        case .success(let found):
            chain = found
        case .failure(.noMigration):
            let newer = version > S.stateVersion ? ", saved by a newer build" : ""
            throw SkippedScreen(
                path: path, reason: .stateVersionMismatch,
                message:
                    "\(S.typeKey) was saved with State version \(version)\(newer); this build has version \(S.stateVersion) and no migration from it"
            )
        case .failure(.broken(let problem)):
            throw SkippedScreen(
                path: path, reason: .stateVersionMismatch,
                message: "\(S.typeKey) State version \(version) cannot migrate to version \(S.stateVersion): \(problem)"
            )
        }
        do {
            let state = try chain.migrate(data, with: decoder)
            restoration.migrated.append(
                LaunchReport.MigratedScreen(path: path, fromVersion: version, toVersion: S.stateVersion))
            return state
        } catch {
            throw SkippedScreen(
                path: path, reason: .migrationFailed,
                message:
                    "\(S.typeKey) State version \(version) did not migrate to version \(S.stateVersion): step \(error.step) failed: \(error.underlying)"
            )
        }
    }

    private func restoreStack(
        _ archived: ArchivedNode, declared: DeclarationNode, path: IdentifierPath, into restoration: inout Restoration
    ) async -> ScreenNode? {
        var children: [ScreenNode] = []
        let saved = archived.children ?? []
        for (index, child) in saved.enumerated() {
            let childPath = path.appending(child.id)
            let position = PositionalIdentifier(child.id)
            let candidates = index == 0 ? Array(declared.children.prefix(1)) : declared.pushable
            let childDeclaration = candidates.first { $0.identifier == position?.base }
            var restored: ScreenNode?
            if let position, position.position == index, let childDeclaration {
                restored = await restore(child, declared: childDeclaration, path: childPath, into: &restoration)
            } else {
                restoration.skipSubtree(
                    child, at: childPath, .notDeclared,
                    "\(path) declares no \(index == 0 ? "root" : "pushable screen") \(position?.base ?? child.id) at position \(index)"
                )
            }
            guard let restored else {
                for above in saved.dropFirst(index + 1) {
                    restoration.skipSubtree(
                        above, at: path.appending(above.id), .stackTruncated,
                        "\(childPath), below it on the stack, was not restored")
                }
                break
            }
            children.append(restored)
        }
        if children.isEmpty {
            guard let root = declared.children.first?.makeInitialNode() else { return nil }
            children = [root]
        }
        return ScreenNode(declaration: declared, identifier: declared.identifier, screen: nil, children: children)
    }

    private func restoreTabs(
        _ archived: ArchivedNode, declared: DeclarationNode, path: IdentifierPath, into restoration: inout Restoration
    ) async -> ScreenNode {
        var tabs: [ScreenNode] = []
        let saved = archived.children ?? []
        for tabDeclaration in declared.children {
            if let identifier = tabDeclaration.identifier, let savedTab = saved.first(where: { $0.id == identifier }),
                let restored = await restore(
                    savedTab, declared: tabDeclaration, path: path.appending(identifier), into: &restoration)
            {
                tabs.append(restored)
            } else if let initial = tabDeclaration.makeInitialNode() {
                tabs.append(initial)
            }
        }
        for savedTab in saved where !declared.children.contains(where: { $0.identifier == savedTab.id }) {
            restoration.skipSubtree(
                savedTab, at: path.appending(savedTab.id), .notDeclared,
                "\(path) no longer declares a tab \(savedTab.id)")
        }
        func index(of identifier: String?) -> Int? {
            identifier.flatMap { id in tabs.firstIndex { $0.identifier == id } }
        }
        // A saved selection that is no longer a tab falls back to the declared one.
        let selected = index(of: archived.selected) ?? index(of: declared.initialSelection) ?? 0
        return ScreenNode(
            declaration: declared, identifier: declared.identifier, screen: nil, children: tabs,
            selectedIndex: tabs.isEmpty ? nil : selected)
    }

    private func restoreContainerChildren(
        _ archived: ArchivedNode, declared: DeclarationNode, path: IdentifierPath, into node: inout ScreenNode,
        _ restoration: inout Restoration
    ) async {
        var seen: Set<String> = []
        for child in archived.children ?? [] {
            let childPath = path.appending(child.id)
            guard seen.insert(child.id).inserted else {
                restoration.skipSubtree(
                    child, at: childPath, .malformed, "\(path) has two saved children named \(child.id)")
                continue
            }
            // What addChild refuses: a name paths cannot hold (damage), or one the declaration
            // gives a presented element (an archive of an older build may hold one).
            guard DeclarationNode.isValidIdentifier(child.id) else {
                restoration.skipSubtree(
                    child, at: childPath, .malformed, "\(path) cannot have a child named \"\(child.id)\"")
                continue
            }
            guard !declared.presentable.contains(where: { $0.identifier == child.id }) else {
                restoration.skipSubtree(
                    child, at: childPath, .notDeclared,
                    "\(path) declares \(child.id) as presentable, not as a child")
                continue
            }
            let childDeclaration =
                declared.children.first { $0.identifier == child.id }
                ?? declared.children.first { $0.typeKey != nil && $0.typeKey == child.type }
            guard let childDeclaration else {
                restoration.skipSubtree(
                    child, at: childPath, .notDeclared, "\(path) declares no child like \(child.id)")
                continue
            }
            if var restored = await restore(child, declared: childDeclaration, path: childPath, into: &restoration) {
                restored.identifier = child.id
                node.children.append(restored)
            }
        }
        if let container = node.screen as? any RestorableContainer {
            node.screen = container.withRestoredChildren(node.children.compactMap(\.identifier))
        }
    }
}

extension SkippedScreen: Error {}

extension RestorableObject {
    func decodeSavedState(_ data: Data) async throws {
        await decodeRestorableState(try ArchiveDecoder().decode(State.self, from: data))
    }

    func encodedState(with encoder: ArchiveEncoder) async throws -> Data {
        try encoder.encode(await encodeRestorableState())
    }
}

extension Duration {
    /// `3 days`, `5 h`, `12 min`, `40 s`: the largest whole unit.
    var formatted: String {
        let seconds = components.seconds
        switch seconds {
        case 86_400...: return "\(seconds / 86_400) days"
        case 3_600...: return "\(seconds / 3_600) h"
        case 60...: return "\(seconds / 60) min"
        default: return "\(seconds) s"
        }
    }
}

extension RestorableContainer {
    func withRestoredChildren(_ identifiers: [String]) -> any RestorableScreen {
        var copy = self
        copy.didRestoreChildren(identifiers)
        return copy
    }
}
