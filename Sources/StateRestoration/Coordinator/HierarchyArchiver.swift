import Foundation

/// Turns a live hierarchy into an encoded archive hierarchy by UIKit's rules: a
/// node without an identifier is skipped with everything under it; a stack's
/// children carry their position; a custom container chooses which children are
/// preserved.
///
/// Saving is incremental, at three levels. A screen whose state (after its
/// will-encode hook) equals the state encoded at the same path by the previous
/// save reuses those bytes instead of being encoded again. A node whose own
/// fields, state and children all came out the same reuses its whole encoding,
/// so a save where one screen changed re-encodes only the nodes on the way from
/// that screen to the root. And a node whose children (and presented node) are in
/// the same array storage as when its entry last looked at them, which the entry
/// keeps, has the same children as then: when all of them are plain values
/// (``PlainScreenTypes``), nothing could have changed them, and their walk is
/// skipped, so a save of a tree edited in place (a `ScreenTree` copy shares the
/// storage of every array it did not change) visits the changed branches only.
/// The bytes of a state or a node depend on nothing but their values, so reuse
/// never changes what is written.
struct HierarchyArchiver {
    /// A state's encoding by a save, kept for the next one (a class: passed on by a retain).
    /// Always a ``TypedEncodedState``, which holds the state itself; `screenType` names the
    /// screen's type, set by that class's initializer from its generic arguments, so that a
    /// save can downcast it to its screen type's `State` without a check once the screen types
    /// match (a checked cast looks the generic class's metadata up, about 400 instructions for
    /// every screen of every save).
    class EncodedState: @unchecked Sendable {
        let data: Data
        /// The type of the screen whose state this is; `TypedEncodedState`'s `State` is its
        /// `State`.
        let screenType: ObjectIdentifier
        /// Whether that type is plain (``PlainScreenTypes``).
        let screenIsPlain: Bool

        fileprivate init(data: Data, screenType: ObjectIdentifier, screenIsPlain: Bool) {
            self.data = data
            self.screenType = screenType
            self.screenIsPlain = screenIsPlain
        }
    }

    /// An encoded state with the state it encodes, stored inline (no box of its own), so that
    /// the next save finds it with one memory access less per screen.
    final class TypedEncodedState<State: Sendable>: EncodedState, @unchecked Sendable {
        let state: State

        fileprivate init<Screen: RestorableScreen>(state: State, data: Data, screen: Screen.Type, isPlain: Bool)
        where Screen.State == State {
            self.state = state
            super.init(
                data: data, screenType: ObjectIdentifier(Screen.self), screenIsPlain: isPlain)
        }
    }

    /// What a save encoded for one node and everything under it, kept for the next
    /// save: a tree that mirrors the saved hierarchy.
    ///
    /// A class, so that handing the previous save's subtrees down the walk and keeping
    /// them for the next save costs a retain rather than a copy of every field.
    ///
    /// `@unchecked Sendable`: ``nodes``, its one variable, is read and written only by the walk
    /// of a save, and a coordinator, which owns its entries, runs one save at a time.
    final class Entry: @unchecked Sendable {
        /// The node's own fields, with its children named by path component.
        let shape: Shape
        /// Where the node was saved.
        let path: IdentifierPath
        let bytes: Data
        /// The CRC-32C register of `bytes` (``CRC32C/register(_:)``): a parent's record, and
        /// the archive's checksum, fold it in rather than read the bytes again.
        let register: UInt32
        let state: EncodedState?
        /// The saved children, in order, with their path components.
        let children: [(component: String, entry: Entry)]
        /// The entry of the node presented over this one.
        let presented: Entry?
        /// The node's children and presented node as the last save that walked the node found
        /// them, to be compared with the next save's: kept, so that their storage is not reused
        /// for other nodes. Only when ``childrenArePlain`` (empty otherwise, as nothing could be
        /// skipped), and replaced by a save that finds the node unchanged in other storage, so
        /// that an entry keeps alive no screens but those of the tree last saved.
        var nodes: Nodes
        /// Whether every node under this one is a plain value: a screen of a plain type
        /// (``PlainScreenTypes``) or a stack or tabs, with no custom container and no node
        /// skipped. The next save then finds the same children in the same storage to be the
        /// same save, and reuses them without walking them.
        let childrenArePlain: Bool
        /// Whether this node, too, is plain: its screen, if any, is of a plain type, and it is
        /// not a custom container.
        let isPlain: Bool
        /// What a save's report says of this node and everything under it, made with the entry
        /// and reused with it.
        let saved: SavedNode

        init(
            shape: Shape, path: IdentifierPath, bytes: Data, register: UInt32, state: EncodedState?,
            children: [(component: String, entry: Entry)], presented: Entry?, nodes: Nodes, childrenArePlain: Bool
        ) {
            self.shape = shape
            self.path = path
            self.bytes = bytes
            self.register = register
            self.state = state
            self.children = children
            self.presented = presented
            self.nodes = childrenArePlain ? nodes : .none
            self.childrenArePlain = childrenArePlain
            self.isPlain = childrenArePlain && (state?.screenIsPlain ?? true)
            var savedChildren = children.map(\.entry.saved)
            if let presented { savedChildren.append(presented.saved) }
            self.saved = SavedNode(
                path: path,
                stateSize: state.flatMap { state in
                    shape.type.map { .init(path: path, typeKey: $0, byteCount: state.data.count) }
                },
                children: savedChildren)
        }

        /// Reports this node and every node under it as saved again, unchanged: their states
        /// were reused. (Their paths and sizes are in ``saved``, which the report reads.)
        func reportUnchanged(into report: inout SaveReport) {
            report.reusedStateCount += saved.stateCount
        }

        /// The child saved under `component`, looked for first at `index` (where an
        /// unchanged container has it) and next to it (a child added or removed before it).
        func child(_ component: String, near index: Int) -> Entry? {
            // Components are unique among siblings, so the order of the probes does not matter.
            var candidate = Swift.max(index - 1, 0)
            while candidate <= index + 1 && candidate < children.count {
                if children[candidate].component == component { return children[candidate].entry }
                candidate += 1
            }
            return children.first { $0.component == component }?.entry
        }
    }

    /// A node's children and presented node, as arrays whose storage is compared.
    struct Nodes: Sendable {
        let children: [ScreenNode]
        let presented: [ScreenNode]

        /// No nodes: nothing to compare.
        static let none = Nodes(children: [], presented: [])

        init(children: [ScreenNode], presented: [ScreenNode]) {
            self.children = children
            self.presented = presented
        }

        /// The children and presented node of the node at `node`.
        init(of node: UnsafePointer<ScreenNode>) {
            self.init(children: node.pointee.children, presented: node.pointee.presentedStorage)
        }

        /// Whether there are neither children nor a presented node: nothing to skip.
        var isEmpty: Bool { children.isEmpty && presented.isEmpty }

        /// Whether `node` holds its children and presented node in these arrays' storage.
        func areStorage(of node: UnsafePointer<ScreenNode>) -> Bool {
            Self.same(children, node.pointee.children) && Self.same(presented, node.pointee.presentedStorage)
        }

        private static func same(_ a: [ScreenNode], _ b: [ScreenNode]) -> Bool {
            a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
            }
        }
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

        /// Whether this is the shape of a node with these fields and children, compared
        /// field by field without making the other shape (most nodes of a save are unchanged).
        func matches(
            id: String, kind: DeclarationNode.Kind, type: ScreenTypeKey?, version: Int?, selected: String?,
            children: [(component: String, entry: Entry)], presented: String?
        ) -> Bool {
            guard self.id == id, self.kind == kind, self.type == type, self.version == version,
                self.selected == selected, self.presented == presented
            else { return false }
            guard let components = self.children else { return kind == .screen }
            guard kind != .screen, components.count == children.count else { return false }
            for index in components.indices where components[index] != children[index].component {
                return false
            }
            return true
        }
    }

    let encoder: ArchiveEncoder
    /// What the previous save encoded.
    let previous: Entry?
    /// What this save encoded or reused: the next save's `previous`. For a root encoded again,
    /// set by ``complete(archive:)``.
    private(set) var encoded: Entry?
    /// A root encoded again, until ``complete(archive:)``.
    private var pendingRoot: (changed: Changed, encoding: ArchivePendingEncoding)?

    init(encoder: ArchiveEncoder, previous: Entry?) {
        self.encoder = encoder
        self.previous = previous
    }

    /// The root's encoding, as the archive holds it.
    enum Root {
        /// Nothing changed since the previous save: its root entry, bytes and all.
        case unchanged(Entry)
        /// The root's record, encoded again, for the archive to write in place: the record
        /// holds the bytes of the whole hierarchy, which are then copied once, into the archive,
        /// rather than into the record and then again into the archive.
        case pending(ArchivePendingEncoding)
    }

    /// The root's encoding, or nil when the root has no identifier. After a root encoded again
    /// is written into an archive, ``complete(archive:)`` makes its entry.
    mutating func archive(_ tree: ScreenTree, report: inout SaveReport) throws(RestorationError) -> Root? {
        let previousRoot = previous?.shape.id == tree.root.identifier ? previous : nil
        let outcome = try Self.withPointer(to: tree.root) { (root) throws(RestorationError) in
            try walk(
                root, component: root.pointee.identifier, parent: nil, depth: 1, previous: previousRoot,
                report: &report)
        }
        switch outcome {
        case nil:
            encoded = nil
            return nil
        case .unchanged(let entry)?:
            encoded = entry
            return .unchanged(entry)
        case .changed(let changed)?:
            let encoding = try changed.pending(by: encoder)
            pendingRoot = (changed, encoding)
            encoded = nil
            return .pending(encoding)
        }
    }

    /// Makes the entry of a root encoded again, once `archive` holds it: the entry's bytes are
    /// a view of the archive's, not a copy.
    mutating func complete(archive: Data) {
        guard let (changed, encoding) = pendingRoot else { return }
        pendingRoot = nil
        if let (bytes, register) = encoding.bytes(in: archive) {
            encoded = changed.entry(bytes: bytes, register: register)
        } else {
            // Not written in place (only an `ArchiveEncoder` does that): bytes of its own.
            let bytes = encoding.data()
            encoded = changed.entry(bytes: bytes, register: bytes.withUnsafeBytes { CRC32C.register($0) })
        }
    }

    /// A node's encoding, and whether it is the previous save's, unchanged.
    fileprivate func archive(
        _ node: UnsafePointer<ScreenNode>, component: String?, parent: IdentifierPath?, depth: Int, previous: Entry?,
        report: inout SaveReport
    ) throws(RestorationError) -> (entry: Entry, reused: Bool)? {
        switch try walk(node, component: component, parent: parent, depth: depth, previous: previous, report: &report)
        {
        case nil: nil
        case .unchanged(let entry)?: (entry, true)
        case .changed(let changed)?: (try changed.encoded(by: encoder), false)
        }
    }

    /// How a node came out of the walk.
    fileprivate enum Outcome {
        /// The node, its state and its children are the previous save's: its previous entry.
        case unchanged(Entry)
        /// Something changed: its record is to be encoded again.
        case changed(Changed)
    }

    /// A node whose record is to be encoded again, with all its entry holds but the bytes.
    fileprivate struct Changed {
        let path: IdentifierPath
        let shape: Shape
        let record: ArchivedNodeRecord
        let state: EncodedState?
        let children: [(component: String, entry: Entry)]
        let presented: Entry?
        let nodes: Nodes
        let childrenArePlain: Bool

        func entry(bytes: Data, register: UInt32) -> Entry {
            Entry(
                shape: shape, path: path, bytes: bytes, register: register, state: state, children: children,
                presented: presented, nodes: nodes, childrenArePlain: childrenArePlain)
        }

        /// The registers of the entries the record holds: every `Data` of a record (its state,
        /// its children) is one of this save's encodings, and it holds its children's bytes,
        /// then the presented node's, in this order.
        private var known: KnownRegisters {
            KnownRegisters(entries: children.map(\.entry) + (presented.map { [$0] } ?? []))
        }

        /// The node's entry, with its record encoded.
        func encoded(by encoder: ArchiveEncoder) throws(RestorationError) -> Entry {
            var known = known
            do {
                let (bytes, register) = try encoder.encodeWithRegister(record) { known.register(of: $0) }
                return entry(bytes: bytes, register: register)
            } catch {
                throw failure(error)
            }
        }

        /// The node's record, encoded for an enclosing encoding to write in place.
        func pending(by encoder: ArchiveEncoder) throws(RestorationError) -> ArchivePendingEncoding {
            var known = known
            do {
                return try encoder.encodePending(record) { known.register(of: $0) }
            } catch {
                throw failure(error)
            }
        }

        private func failure(_ error: any Error) -> RestorationError {
            RestorationError(
                .encodingFailed, path: path, message: "cannot save the node \(path): \(error)", underlying: error)
        }
    }

    /// Walks a node and everything under it.
    ///
    /// The node is passed by address and its children are reached in place: a node taken out
    /// of its parent's array (`children[i]`) is a copy, which retains all that the node holds,
    /// for every node of every save.
    fileprivate func walk(
        _ node: UnsafePointer<ScreenNode>, component: String?, parent: IdentifierPath?, depth: Int, previous: Entry?,
        report: inout SaveReport
    ) throws(RestorationError) -> Outcome? {
        guard let component else {
            let display = parent?.appending(node.pointee.displayName) ?? IdentifierPath([node.pointee.displayName])
            report.skipped.append(
                SkippedScreen(
                    path: display, reason: .noIdentifier,
                    message: "\(display) has no restoration identifier; it and everything under it are not saved"))
            return nil
        }
        // The previous save's entry here was found by this node's path (the root by its
        // identifier, each child by its component under its parent's previous entry), so it
        // holds this path already: reusing it saves making one for every node of every save.
        let path = previous?.path ?? parent?.appending(component) ?? IdentifierPath([component])
        assert(path == parent?.appending(component) ?? IdentifierPath([component]), "an entry saved at another path")
        // A launch reads no deeper (a bound against hostile archives): an archive with a
        // deeper node would be written only to be rejected.
        guard depth <= ArchivedNode.maximumDepth else {
            throw RestorationError(
                .encodingFailed, path: path,
                message: "cannot save \(path): the hierarchy nests deeper than \(ArchivedNode.maximumDepth) levels, "
                    + "more than a launch reads; nothing was saved")
        }
        // Stored properties only, read through the address: a computed property or a method of
        // the node would take the whole node as its `self`, a copy.
        let kind = node.pointee.declaration.kind
        // The record's fields, made into a record only if the node is encoded again (making and
        // destroying a record for every unchanged node was a sixth of a save's walk).
        var type: ScreenTypeKey?
        var version: Int?
        var selected: String?
        var reused = true
        var encodedState: EncodedState?
        if let screen = node.pointee.screen {
            let state = try encodeState(of: screen, at: path, previous: previous?.state, report: &report)
            type = state.type
            version = state.version
            encodedState = state.encoded
            reused = reused && state.reused
        }

        // The children's encodings, and whether each is its previous one. Kept in one value
        // passed `inout` (not variables a local function captures, which the compiler checks
        // for exclusive access at run time on every use).
        var collected = Collected(parent: path, depth: depth, previous: previous)
        var presentedComponent: String?
        var presentedEntry: Entry?
        if kind == .tabs { selected = node.pointee.selectedChild?.identifier }
        let childrenArePlain: Bool
        if let previous, previous.childrenArePlain, previous.shape.kind == kind,
            !previous.nodes.isEmpty, previous.nodes.areStorage(of: node)
        {
            // The children and presented node are in the storage the entry kept when a save last
            // walked them: they are the same values, every one of them plain, so their save is
            // that one (see `PlainScreenTypes`), without walking them.
            collected.children = previous.children
            for child in previous.children { child.entry.reportUnchanged(into: &report) }
            if let presented = previous.presented {
                presented.reportUnchanged(into: &report)
                presentedComponent = presented.shape.id
                presentedEntry = presented
            }
            childrenArePlain = true
        } else {
            let skippedBefore = report.skipped.count
            // Not for a screen without children: reserving even no room allocates a buffer.
            if !node.pointee.children.isEmpty { collected.children.reserveCapacity(node.pointee.children.count) }
            switch kind {
            case .screen:
                break
            case .stack:
                try Self.withChildren(of: node) { (nodes) throws(RestorationError) in
                    guard let base = nodes.baseAddress else { return }
                    for index in nodes.indices {
                        guard
                            let childComponent = ScreenNode.component(
                                of: nodes[index].identifier, at: index, under: .stack)
                        else {
                            try collected.add(base + index, nil, archiver: self, report: &report)
                            for above in nodes.indices.dropFirst(index + 1) {
                                let name =
                                    ScreenNode.component(of: nodes[above].identifier, at: above, under: .stack)
                                    ?? nodes[above].displayName
                                report.skipped.append(
                                    SkippedScreen(
                                        path: path.appending(name), reason: .stackTruncated,
                                        message:
                                            "\(path.appending(name)) is above a screen without identifier on its stack"
                                    ))
                            }
                            break
                        }
                        try collected.add(base + index, childComponent, archiver: self, report: &report)
                    }
                }
            case .tabs:
                try Self.withChildren(of: node) { (nodes) throws(RestorationError) in
                    guard let base = nodes.baseAddress else { return }
                    for index in nodes.indices {
                        try collected.add(base + index, nodes[index].identifier, archiver: self, report: &report)
                    }
                }
            case .container:
                let identifiers = node.pointee.children.map(\.identifier)
                let preserved =
                    (node.pointee.screen as? any RestorableContainer)?.childrenToPreserve(identifiers)
                    ?? identifiers.compactMap { $0 }
                try Self.withChildren(of: node) { (nodes) throws(RestorationError) in
                    guard let base = nodes.baseAddress else { return }
                    for index in nodes.indices {
                        guard let identifier = nodes[index].identifier else {
                            try collected.add(base + index, nil, archiver: self, report: &report)
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
                        guard let index = nodes.firstIndex(where: { $0.identifier == identifier }) else { continue }
                        try collected.add(base + index, identifier, archiver: self, report: &report)
                    }
                }
            }
            if !node.pointee.presentedStorage.isEmpty {
                let encoded = try node.pointee.presentedStorage.withUnsafeBufferPointer {
                    (presented) throws(RestorationError) -> (entry: Entry, reused: Bool)? in
                    guard let address = presented.baseAddress else { return nil }
                    let identifier = address.pointee.identifier
                    return try archive(
                        address, component: identifier, parent: path, depth: depth + 1,
                        previous: previous?.presented.flatMap { $0.shape.id == identifier ? $0 : nil }, report: &report)
                }
                if let encoded {
                    presentedComponent = encoded.entry.shape.id
                    presentedEntry = encoded.entry
                    reused = reused && encoded.reused
                }
            }
            childrenArePlain =
                kind != .container && report.skipped.count == skippedBefore
                && collected.children.allSatisfy { $0.entry.isPlain } && presentedEntry?.isPlain ?? true
        }

        let children = collected.children
        reused = reused && collected.reused
        if reused, let previous,
            previous.shape.matches(
                id: component, kind: kind, type: type, version: version, selected: selected, children: children,
                presented: presentedComponent)
        {
            // Same shape, state and children (each child is its previous entry): the
            // previous entry describes this node exactly. It now keeps this tree's storage
            // (or none, if something under the node is no longer plain).
            if !childrenArePlain {
                if !previous.nodes.isEmpty { previous.nodes = .none }
            } else if !previous.nodes.isEmpty || !node.pointee.children.isEmpty
                || !node.pointee.presentedStorage.isEmpty,
                !previous.nodes.areStorage(of: node)
            {
                previous.nodes = Nodes(of: node)
            }
            return .unchanged(previous)
        }
        let shape = Shape(
            id: component, kind: kind, type: type, version: version, selected: selected,
            children: kind == .screen ? nil : children.map(\.component), presented: presentedComponent)
        var record = ArchivedNodeRecord(id: component, kind: kind)
        record.type = type
        record.version = version
        record.state = encodedState?.data
        record.selected = selected
        if kind != .screen { record.children = children.map(\.entry.bytes) }
        if let presentedEntry { record.presented = [presentedEntry.bytes] }
        return .changed(
            Changed(
                path: path, shape: shape, record: record, state: encodedState, children: children,
                presented: presentedEntry,
                nodes: Nodes(of: node),
                childrenArePlain: childrenArePlain))
    }

    /// A node's children as the walk encodes them.
    private struct Collected {
        var children: [(component: String, entry: Entry)] = []
        /// Whether every child so far is its previous save's entry, unchanged.
        var reused = true
        let parent: IdentifierPath
        let depth: Int
        let previous: Entry?

        init(parent: IdentifierPath, depth: Int, previous: Entry?) {
            self.parent = parent
            self.depth = depth
            self.previous = previous
        }

        /// Encodes the child at `child`, under `component` (nil: it has no identifier, and is
        /// only reported as skipped with everything under it).
        mutating func add(
            _ child: UnsafePointer<ScreenNode>, _ component: String?, archiver: HierarchyArchiver,
            report: inout SaveReport
        ) throws(RestorationError) {
            let previousChild = component.flatMap { previous?.child($0, near: children.count) }
            guard
                let component,
                let encoded = try archiver.archive(
                    child, component: component, parent: parent, depth: depth + 1, previous: previousChild,
                    report: &report)
            else {
                _ = try archiver.archive(
                    child, component: nil, parent: parent, depth: depth + 1, previous: nil, report: &report)
                return
            }
            children.append((component, encoded.entry))
            reused = reused && encoded.reused
        }
    }

    /// The registers of the entries a record holds, found in the order the record encodes them.
    struct KnownRegisters {
        let entries: [Entry]
        var next = 0

        /// The register of `data` if it is the bytes of one of the entries (the same storage,
        /// not just equal bytes), looked for from the entry after the previous one found.
        mutating func register(of data: Data) -> UInt32? {
            var index = next
            while index < entries.count {
                if Self.sameStorage(entries[index].bytes, data) {
                    next = index + 1
                    return entries[index].register
                }
                index += 1
            }
            return nil
        }

        /// Whether two `Data` values are views of the same bytes in memory.
        static func sameStorage(_ a: Data, _ b: Data) -> Bool {
            a.count == b.count
                && a.withUnsafeBytes { a in b.withUnsafeBytes { b in a.baseAddress == b.baseAddress } }
        }
    }

    /// Calls `body` with the address of a copy of `value`.
    private static func withPointer<Result>(
        to value: ScreenNode, _ body: (UnsafePointer<ScreenNode>) throws(RestorationError) -> Result
    ) throws(RestorationError) -> Result {
        try withUnsafePointer(to: value) { (pointer) throws(RestorationError) in try body(pointer) }
    }

    /// Calls `body` with the children of the node at `node`, in place.
    private static func withChildren<Result>(
        of node: UnsafePointer<ScreenNode>, _ body: (UnsafeBufferPointer<ScreenNode>) throws(RestorationError) -> Result
    ) throws(RestorationError) -> Result {
        try node.pointee.children.withUnsafeBufferPointer { (children) throws(RestorationError) in try body(children) }
    }

    /// A screen's encoded state, and whether it is the previous save's, unchanged.
    private func encodeState<S: RestorableScreen>(
        of screen: S, at path: IdentifierPath, previous: EncodedState?, report: inout SaveReport
    ) throws(RestorationError) -> (encoded: EncodedState, reused: Bool, type: ScreenTypeKey, version: Int) {
        // A plain type's hook does nothing (see `PlainScreenTypes`): its state is read from the
        // screen itself, without a copy to call the hook on. What a type is, the previous save of
        // a screen of the same type says, or the first call of its hook finds.
        let known = previous?.screenType == ObjectIdentifier(S.self)
        let state: S.State
        let isPlain: Bool
        if known, previous?.screenIsPlain == true {
            state = screen.state
            isPlain = true
        } else {
            var copy = screen
            isPlain = known ? false : PlainScreenTypes.willEncode(&copy)
            // Read, not accessed in place: an inout access would run a `didSet` or setter of
            // the screen's `state` on every save.
            state = copy.state
        }
        // The dynamic type's, as a subclass of a class screen may declare its own.
        let version = type(of: screen).stateVersion
        // A screen of the same type has the same type of state (see `EncodedState`).
        if known, let previous, unsafeDowncast(previous, to: TypedEncodedState<S.State>.self).state == state {
            report.reusedStateCount += 1
            return (previous, true, S.typeKey, version)
        }
        do {
            let data = try encoder.encode(state)
            report.encodedStateCount += 1
            return (
                TypedEncodedState(state: state, data: data, screen: S.self, isPlain: isPlain), false, S.typeKey, version
            )
        } catch {
            throw RestorationError(
                .encodingFailed, path: path, message: "cannot save \(path) (\(S.typeKey)): \(error)", underlying: error)
        }
    }
}
