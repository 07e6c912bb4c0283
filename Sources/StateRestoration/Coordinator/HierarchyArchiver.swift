import Foundation

/// Turns a live hierarchy into an encoded archive hierarchy by UIKit's rules: a
/// node without an identifier is skipped with everything under it; a stack's
/// children carry their position; a custom container chooses which children are
/// preserved.
///
/// Saving is incremental, at two levels. A screen whose state (after its
/// will-encode hook) equals the state encoded at the same path by the previous
/// save reuses those bytes instead of being encoded again. A node whose own
/// fields, state and children all came out the same reuses its whole encoding,
/// so a save where one screen changed re-encodes only the nodes on the way from
/// that screen to the root. The bytes of a state or a node depend on nothing but
/// their values, so reuse never changes what is written.
struct HierarchyArchiver {
    /// A state encoded by a save, kept for the next one.
    struct EncodedState: Sendable {
        var state: any Sendable
        var data: Data
    }

    /// A node encoded by a save, kept for the next one.
    struct EncodedNode: Sendable {
        /// The node's own fields, with its children named by path component.
        var shape: Shape
        var bytes: Data
    }

    /// What a node's encoding depends on besides its state and its children's bytes.
    struct Shape: Equatable, Sendable {
        var id: String
        var kind: DeclarationNode.Kind
        var type: ScreenTypeKey?
        var version: Int?
        var selected: String?
        var children: [String]?
        var presented: String?
    }

    let encoder: ArchiveEncoder
    /// The states the previous save encoded, by path.
    let previousStates: [IdentifierPath: EncodedState]
    /// The nodes the previous save encoded, by path.
    let previousNodes: [IdentifierPath: EncodedNode]
    /// The states this save encoded or reused, by path: the next save's `previousStates`.
    private(set) var encodedStates: [IdentifierPath: EncodedState] = [:]
    /// The nodes this save encoded or reused, by path: the next save's `previousNodes`.
    private(set) var encodedNodes: [IdentifierPath: EncodedNode] = [:]

    init(
        encoder: ArchiveEncoder, previousStates: [IdentifierPath: EncodedState],
        previousNodes: [IdentifierPath: EncodedNode]
    ) {
        self.encoder = encoder
        self.previousStates = previousStates
        self.previousNodes = previousNodes
    }

    /// The root's encoding, or nil when the root has no identifier.
    mutating func archive(_ tree: ScreenTree, report: inout SaveReport) throws(RestorationError) -> Data? {
        try archive(tree.root, component: tree.root.identifier, parent: nil, report: &report)?.bytes
    }

    /// A node's encoding, and whether it is the previous save's, unchanged.
    private mutating func archive(
        _ node: ScreenNode, component: String?, parent: IdentifierPath?, report: inout SaveReport
    ) throws(RestorationError) -> (bytes: Data, reused: Bool)? {
        guard let component else {
            let display = parent?.appending(node.displayName) ?? IdentifierPath([node.displayName])
            report.skipped.append(
                SkippedScreen(
                    path: display, reason: .noIdentifier,
                    message: "\(display) has no restoration identifier; it and everything under it are not saved"))
            return nil
        }
        let path = parent?.appending(component) ?? IdentifierPath([component])
        var record = ArchivedNodeRecord(id: component, kind: node.kind)
        var reused = true
        report.savedPaths.append(path)
        if let screen = node.screen {
            let state = try encodeState(of: screen, at: path, report: &report)
            record.type = screen.typeKey
            record.version = type(of: screen).stateVersion
            record.state = state.data
            reused = reused && state.reused
            report.stateSizes.append(.init(path: path, typeKey: screen.typeKey, byteCount: state.data.count))
        }

        var children: [(component: String, bytes: Data)] = []
        func add(_ child: ScreenNode, _ childComponent: String?) throws(RestorationError) {
            guard let encoded = try archive(child, component: childComponent, parent: path, report: &report) else {
                return
            }
            children.append((childComponent ?? "", encoded.bytes))
            reused = reused && encoded.reused
        }
        switch node.kind {
        case .screen:
            break
        case .stack:
            for index in node.children.indices {
                guard let childComponent = node.component(ofChild: index) else {
                    try add(node.children[index], nil)
                    for above in node.children.indices.dropFirst(index + 1) {
                        let name = node.component(ofChild: above) ?? node.children[above].displayName
                        report.skipped.append(
                            SkippedScreen(
                                path: path.appending(name), reason: .stackTruncated,
                                message: "\(path.appending(name)) is above a screen without identifier on its stack"))
                    }
                    break
                }
                try add(node.children[index], childComponent)
            }
        case .tabs:
            for index in node.children.indices {
                try add(node.children[index], node.component(ofChild: index))
            }
            record.selected = node.selectedChild?.identifier
        case .container:
            let identifiers = node.children.map(\.identifier)
            let preserved =
                (node.screen as? any RestorableContainer)?.childrenToPreserve(identifiers)
                ?? identifiers.compactMap { $0 }
            for child in node.children {
                guard let identifier = child.identifier else {
                    try add(child, nil)
                    continue
                }
                if !preserved.contains(identifier) {
                    report.skipped.append(
                        SkippedScreen(
                            path: path.appending(identifier), reason: .notPreserved,
                            message: "\(path) chose not to preserve its child \(identifier)"))
                }
            }
            for identifier in preserved {
                guard let child = node.children.first(where: { $0.identifier == identifier }) else { continue }
                try add(child, identifier)
            }
        }
        if node.kind != .screen { record.children = children.map(\.bytes) }
        var presentedComponent: String?
        if let presented = node.presented,
            let encoded = try archive(presented, component: presented.identifier, parent: path, report: &report)
        {
            record.presented = [encoded.bytes]
            presentedComponent = presented.identifier
            reused = reused && encoded.reused
        }

        let shape = Shape(
            id: component, kind: node.kind, type: record.type, version: record.version, selected: record.selected,
            children: node.kind == .screen ? nil : children.map(\.component), presented: presentedComponent)
        if reused, let previous = previousNodes[path], previous.shape == shape {
            encodedNodes[path] = previous
            return (previous.bytes, true)
        }
        do {
            let bytes = try encoder.encode(record)
            encodedNodes[path] = EncodedNode(shape: shape, bytes: bytes)
            return (bytes, false)
        } catch {
            throw RestorationError(
                .encodingFailed, path: path, message: "cannot save the node \(path): \(error)", underlying: error)
        }
    }

    /// A screen's encoded state, and whether it is the previous save's, unchanged.
    private mutating func encodeState<S: RestorableScreen>(
        of screen: S, at path: IdentifierPath, report: inout SaveReport
    ) throws(RestorationError) -> (data: Data, reused: Bool) {
        var copy = screen
        copy.willEncodeRestorableState()
        if let cached = previousStates[path], let state = cached.state as? S.State, state == copy.state {
            encodedStates[path] = cached
            report.reusedStateCount += 1
            return (cached.data, true)
        }
        do {
            let data = try encoder.encode(copy.state)
            encodedStates[path] = EncodedState(state: copy.state, data: data)
            report.encodedStateCount += 1
            return (data, false)
        } catch {
            throw RestorationError(
                .encodingFailed, path: path, message: "cannot save \(path) (\(S.typeKey)): \(error)", underlying: error)
        }
    }
}
