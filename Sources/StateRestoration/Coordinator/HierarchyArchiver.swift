import Foundation

/// Turns a live hierarchy into archived nodes by UIKit's rules: a node without an
/// identifier is skipped with everything under it; a stack's children carry their
/// position; a custom container chooses which children are preserved.
///
/// Saving is incremental: a screen whose state (after its will-encode hook) equals
/// the state encoded at the same path by the previous save reuses those bytes
/// instead of being encoded again. The bytes of a state depend on nothing but the
/// state, so reuse never changes what is written.
struct HierarchyArchiver {
    /// A state encoded by a save, kept for the next one.
    struct EncodedState: Sendable {
        var state: any Sendable
        var data: Data
    }

    let encoder: ArchiveEncoder
    /// The states the previous save encoded, by path.
    let previous: [IdentifierPath: EncodedState]
    /// The states this save encoded or reused, by path: the next save's `previous`.
    private(set) var encoded: [IdentifierPath: EncodedState] = [:]

    init(encoder: ArchiveEncoder, previous: [IdentifierPath: EncodedState]) {
        self.encoder = encoder
        self.previous = previous
    }

    mutating func archive(_ tree: ScreenTree, report: inout SaveReport) throws(RestorationError) -> ArchivedNode? {
        try archive(tree.root, component: tree.root.identifier, parent: nil, report: &report)
    }

    private mutating func archive(
        _ node: ScreenNode, component: String?, parent: IdentifierPath?, report: inout SaveReport
    ) throws(RestorationError) -> ArchivedNode? {
        guard let component else {
            let display = parent?.appending(node.displayName) ?? IdentifierPath([node.displayName])
            report.skipped.append(
                SkippedScreen(
                    path: display, reason: .noIdentifier,
                    message: "\(display) has no restoration identifier; it and everything under it are not saved"))
            return nil
        }
        let path = parent?.appending(component) ?? IdentifierPath([component])
        var archived = ArchivedNode(id: component, kind: node.kind)
        report.savedPaths.append(path)
        if let screen = node.screen {
            archived.type = screen.typeKey
            archived.version = type(of: screen).stateVersion
            let state = try encodeState(of: screen, at: path, report: &report)
            archived.state = state
            report.stateSizes.append(.init(path: path, typeKey: screen.typeKey, byteCount: state.count))
        }

        var children: [ArchivedNode] = []
        switch node.kind {
        case .screen:
            break
        case .stack:
            for index in node.children.indices {
                guard let childComponent = node.component(ofChild: index) else {
                    _ = try archive(node.children[index], component: nil, parent: path, report: &report)
                    for above in node.children.indices.dropFirst(index + 1) {
                        let name = node.component(ofChild: above) ?? node.children[above].displayName
                        report.skipped.append(
                            SkippedScreen(
                                path: path.appending(name), reason: .stackTruncated,
                                message: "\(path.appending(name)) is above a screen without identifier on its stack"))
                    }
                    break
                }
                if let child = try archive(node.children[index], component: childComponent, parent: path, report: &report) {
                    children.append(child)
                }
            }
        case .tabs:
            for index in node.children.indices {
                let child = try archive(
                    node.children[index], component: node.component(ofChild: index), parent: path, report: &report)
                if let child { children.append(child) }
            }
            archived.selected = node.selectedChild?.identifier
        case .container:
            let identifiers = node.children.map(\.identifier)
            let preserved = (node.screen as? any RestorableContainer)?.childrenToPreserve(identifiers)
                ?? identifiers.compactMap { $0 }
            for child in node.children {
                guard let identifier = child.identifier else {
                    _ = try archive(child, component: nil, parent: path, report: &report)
                    continue
                }
                guard preserved.contains(identifier) else {
                    report.skipped.append(
                        SkippedScreen(
                            path: path.appending(identifier), reason: .notPreserved,
                            message: "\(path) chose not to preserve its child \(identifier)"))
                    continue
                }
            }
            for identifier in preserved {
                guard let child = node.children.first(where: { $0.identifier == identifier }) else { continue }
                if let archivedChild = try archive(child, component: identifier, parent: path, report: &report) {
                    children.append(archivedChild)
                }
            }
        }
        if node.kind != .screen { archived.children = children }
        if let presented = node.presented,
            let archivedPresented = try archive(presented, component: presented.identifier, parent: path, report: &report)
        {
            archived.presented = [archivedPresented]
        }
        return archived
    }

    private mutating func encodeState<S: RestorableScreen>(
        of screen: S, at path: IdentifierPath, report: inout SaveReport
    ) throws(RestorationError) -> Data {
        var copy = screen
        copy.willEncodeRestorableState()
        if let cached = previous[path], let state = cached.state as? S.State, state == copy.state {
            encoded[path] = cached
            report.reusedStateCount += 1
            return cached.data
        }
        do {
            let data = try encoder.encode(copy.state)
            encoded[path] = EncodedState(state: copy.state, data: data)
            report.encodedStateCount += 1
            return data
        } catch {
            throw RestorationError(
                .encodingFailed, path: path, message: "cannot save \(path) (\(S.typeKey)): \(error)", underlying: error)
        }
    }
}

extension ArchivedNode {
    init(id: String, kind: DeclarationNode.Kind) {
        self.init(id: id, kind: kind, type: nil, version: nil, state: nil, selected: nil, children: nil, presented: nil)
    }
}
