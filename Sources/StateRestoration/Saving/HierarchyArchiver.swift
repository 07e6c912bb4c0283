import Foundation

/// Turns a live hierarchy into the archive's encoded hierarchy by UIKit's rules, in one walk:
/// a node without an identifier is skipped with everything under it (and on a stack, every
/// screen above it too); a custom container chooses which children are preserved, and in
/// which order; tabs save their selection; a node presented over another is saved after its
/// children.
///
/// A save reuses what the previous save encoded wherever the values are equal, looked up by
/// path: a screen's state bytes when the screen has the same type key and state version and
/// an equal state (`==`), and a node's whole record when its fields, its state's bytes and its
/// children's bytes are equal. The bytes depend on nothing but these values, so reuse never
/// changes what is written: only the nodes on the way from a changed screen to the root are
/// encoded again. Every screen's state is still read and compared on every save.
struct HierarchyArchiver {
    /// What a save wrote for one node and everything under it, kept for the next save.
    final class Entry: Sendable {
        /// The node's record as written: its fields, its state's bytes, its children's bytes.
        let record: ArchivedNodeRecord
        /// The record's encoding.
        let bytes: Data
        /// The screen's state that ``record`` holds encoded, for the next save to compare with.
        let state: (any Sendable)?
        /// The saved children, in the record's order.
        let children: [Entry]
        /// The saved node presented over this one.
        let presented: Entry?
        /// What a save's report says of this node and everything under it.
        let saved: SavedNode

        /// Encodes `record` into a new entry.
        ///
        /// - Throws: ``RestorationError/Code/encodingFailed`` naming `path`.
        init(
            record: ArchivedNodeRecord, state: (any Sendable)?, children: [Entry], presented: Entry?,
            path: IdentifierPath, encoder: ArchiveEncoder
        ) throws(RestorationError) {
            let held = presented.map { children + [$0] } ?? children
            do {
                bytes = try encoder.encode(record)
            } catch {
                throw RestorationError(
                    .encodingFailed, path: path, message: "cannot save the node \(path): \(error)", underlying: error)
            }
            self.record = record
            self.state = state
            self.children = children
            self.presented = presented
            let stateSize = record.type.flatMap { type in
                record.state.map { SaveReport.StateSize(path: path, typeKey: type, byteCount: $0.count) }
            }
            saved = SavedNode(path: path, stateSize: stateSize, children: held.map(\.saved))
        }

        /// The child saved under `component`, looked for first at `index` (where an unchanged
        /// node has it) and next to it (a child added or removed before it), then among all.
        /// `index` may be past the saved children: a stack that grew since.
        func child(_ component: String, near index: Int) -> Entry? {
            let nearby = children.indices.clamped(to: (index - 1)..<(index + 2))
            if let found = nearby.first(where: { children[$0].record.id == component }) { return children[found] }
            return children.first { $0.record.id == component }
        }
    }

    let encoder: ArchiveEncoder
    /// The root entry of the previous save, if any.
    let previous: Entry?

    /// The root's entry, or nil when the root has no identifier (then reported as skipped).
    ///
    /// - Throws: ``RestorationError/Code/encodingFailed`` when a state or a node does not
    ///   encode, or the hierarchy nests deeper than a launch reads.
    func archive(_ tree: ScreenTree, report: inout SaveReport) throws(RestorationError) -> Entry? {
        guard let identifier = tree.root.identifier else {
            reportMissingIdentifier(of: tree.root, under: nil, report: &report)
            return nil
        }
        return try archive(
            tree.root, component: identifier, parent: nil, depth: 1,
            previous: previous?.record.id == identifier ? previous : nil, report: &report)
    }

    /// The entry of `node`, saved under `component`; `previous` is the previous save's entry at
    /// the same path.
    private func archive(
        _ node: ScreenNode, component: String, parent: IdentifierPath?, depth: Int, previous: Entry?,
        report: inout SaveReport
    ) throws(RestorationError) -> Entry {
        // The previous entry was found by this path, so its path is this one.
        let path = previous?.saved.path ?? parent?.appending(component) ?? IdentifierPath([component])
        // A launch reads no deeper (a bound against hostile archives): an archive with a
        // deeper node would be written only to be rejected.
        guard depth <= ArchivedNode.maximumDepth else {
            throw RestorationError(
                .encodingFailed, path: path,
                message: "cannot save \(path): the hierarchy nests deeper than \(ArchivedNode.maximumDepth) levels, "
                    + "more than a launch reads; nothing was saved")
        }
        var record = ArchivedNodeRecord(id: component, kind: node.kind)
        var state: (any Sendable)?
        if let screen = node.screen {
            state = try encodeState(of: screen, at: path, previous: previous, into: &record, report: &report)
        }

        var children: [Entry] = []
        /// Saves `child` under `component`, after the children saved so far.
        func add(_ child: ScreenNode, _ component: String) throws(RestorationError) {
            let entry = try archive(
                child, component: component, parent: path, depth: depth + 1,
                previous: previous?.child(component, near: children.count), report: &report)
            children.append(entry)
        }
        switch node.kind {
        case .screen:
            break
        case .stack:
            for (index, child) in node.children.enumerated() {
                guard let component = ScreenNode.component(of: child.identifier, at: index, under: .stack) else {
                    reportMissingIdentifier(of: child, under: path, report: &report)
                    for above in node.children.indices.dropFirst(index + 1) {
                        let name = node.component(ofChild: above) ?? node.children[above].displayName
                        report.skipped.append(
                            SkippedScreen(
                                path: path.appending(name), reason: .stackTruncated,
                                message: "\(path.appending(name)) is above a screen without identifier on its stack"))
                    }
                    break
                }
                try add(child, component)
            }
        case .tabs:
            for child in node.children {
                guard let identifier = child.identifier else {
                    reportMissingIdentifier(of: child, under: path, report: &report)
                    continue
                }
                try add(child, identifier)
            }
            record.selected = node.selectedChild?.identifier
        case .container:
            let identifiers = node.children.map(\.identifier)
            let preserved =
                (node.screen as? any RestorableContainer)?.childrenToPreserve(identifiers)
                ?? identifiers.compactMap { $0 }
            for child in node.children {
                guard let identifier = child.identifier else {
                    reportMissingIdentifier(of: child, under: path, report: &report)
                    continue
                }
                if !preserved.contains(identifier) {
                    report.skipped.append(
                        SkippedScreen(
                            path: path.appending(identifier), reason: .notPreserved,
                            message: "\(path) chose not to preserve its child \(identifier)"))
                }
            }
            var added: Set<String> = []
            for identifier in preserved where added.insert(identifier).inserted {
                guard let child = node.children.first(where: { $0.identifier == identifier }) else { continue }
                try add(child, identifier)
            }
        }
        if node.kind != .screen { record.children = children.map(\.bytes) }

        var presented: Entry?
        if let presentedNode = node.presented {
            if let identifier = presentedNode.identifier {
                presented = try archive(
                    presentedNode, component: identifier, parent: path, depth: depth + 1,
                    previous: previous?.presented.flatMap { $0.record.id == identifier ? $0 : nil }, report: &report)
                record.presented = presented.map { [$0.bytes] }
            } else {
                reportMissingIdentifier(of: presentedNode, under: path, report: &report)
            }
        }

        if let previous, previous.record == record { return previous }
        return try Entry(
            record: record, state: state, children: children, presented: presented, path: path, encoder: encoder)
    }

    /// Reports `node`, which has no identifier, as skipped with everything under it.
    private func reportMissingIdentifier(of node: ScreenNode, under parent: IdentifierPath?, report: inout SaveReport) {
        let display = parent?.appending(node.displayName) ?? IdentifierPath([node.displayName])
        report.skipped.append(
            SkippedScreen(
                path: display, reason: .noIdentifier,
                message: "\(display) has no restoration identifier; it and everything under it are not saved"))
    }

    /// Writes the type key, state version and state bytes of `screen` into `record`, reusing
    /// the previous save's bytes when the key, the version and the state are equal, and returns
    /// the state, for an entry to keep (the previous entry's when equal: no new box for it).
    private func encodeState<S: RestorableScreen>(
        of screen: S, at path: IdentifierPath, previous: Entry?, into record: inout ArchivedNodeRecord,
        report: inout SaveReport
    ) throws(RestorationError) -> (any Sendable)? {
        let state = screen.state
        record.type = S.typeKey
        // The dynamic type's, as a subclass of a class screen may declare its own.
        record.version = type(of: screen).stateVersion
        if let previous, previous.record.type == record.type, previous.record.version == record.version,
            let bytes = previous.record.state, let saved = previous.state as? S.State, saved == state
        {
            record.state = bytes
            report.reusedStateCount += 1
            return previous.state
        }
        do {
            record.state = try encoder.encode(state)
        } catch {
            throw RestorationError(
                .encodingFailed, path: path, message: "cannot save \(path) (\(S.typeKey)): \(error)", underlying: error)
        }
        report.encodedStateCount += 1
        return state
    }
}
