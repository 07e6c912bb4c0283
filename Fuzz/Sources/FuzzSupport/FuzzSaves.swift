import Foundation
import StateRestoration

/// Inputs that start with this tag are a program of edits and saves of a tree of `fuzzScreens`:
/// the tag, then ``SaveOperation``s, each an opcode byte and its operands.
let savesTag: [UInt8] = Array("SRS:".utf8)

/// The most operations an input runs, and the most screens a push leaves on the stack: each
/// input stays fast.
private let maximumOperations = 64
private let maximumStackCount = 32

/// Runs the program of operations after ``savesTag`` on a tree of `fuzzScreens`: edits, saves
/// through one coordinator over an in-memory store (each save reuses the previous one's
/// encodings), and relaunches. An edit the tree refuses (a pop from a stack that holds only its
/// root, a dismiss where nothing is presented) is skipped. A save must not throw, and at each
/// relaunch and at the end a new coordinator must restore the tree last saved (the initial tree
/// when nothing was): otherwise the fuzzer traps with what differed.
func fuzzSaves(_ data: Data) {
    let program = [UInt8](data.dropFirst(savesTag.count))
    runInTask { await runSaves(program) }
}

/// One step of a save program.
///
/// An opcode byte is read modulo the number of operations, so every byte is one; operands are
/// single bytes, and strings a length byte (modulo 16) and that many bytes of UTF-8. A program
/// ends where its bytes end, even inside an operation.
enum SaveOperation: Equatable {
    /// Pushes `1 + count % 8` product screens onto the browse stack, with quantities from
    /// `quantity` up; a push stops at 32 screens on the stack.
    case push(count: UInt8, productID: String, quantity: Int8)
    /// Pops the browse stack to the screen at `position` (0 is its root).
    case pop(toPosition: UInt8)
    /// Selects the tab at `index`: 0 and 1 are tabs.
    case selectTab(index: UInt8)
    /// Presents a compose screen over the product at that position on the browse stack.
    case present(over: UInt8, body: String)
    /// Dismisses what the product at that position presents.
    case dismiss(from: UInt8)
    /// Sets the search's query and scroll offset (`scroll / 4`); a query is added to its filters
    /// (at most four), an empty one clears them.
    case editSearch(query: String, scroll: Int8)
    /// Sets the quantity of the product at that position, its source (`source % 4`: none, a
    /// search, a link, a recommendation) and a variant.
    case editProduct(at: UInt8, quantity: Int8, source: UInt8, text: String)
    /// Sets the body and the attachment (none when empty) of the compose screen over the product
    /// at that position.
    case editCompose(at: UInt8, body: String, attachment: String)
    /// Sets the settings' region and adds `limit` to its limits (at most eight, then they restart).
    case editSettings(region: String, limit: Int8)
    /// Saves the tree.
    case save
    /// Launches a new coordinator from the store, checks that it restored the tree last saved,
    /// and goes on with that coordinator and the restored tree.
    case relaunch

    /// How many operations there are: their opcodes are 0 to 10, in the order of the cases.
    private static let opcodeCount: UInt8 = 11

    /// Reads the next operation of a program, or nil when the bytes end.
    init?(reading bytes: inout ArraySlice<UInt8>) {
        guard let opcode = bytes.popFirst() else { return nil }
        switch opcode % Self.opcodeCount {
        case 0:
            guard let count = bytes.popFirst(), let id = Self.string(&bytes), let quantity = Self.int8(&bytes)
            else { return nil }
            self = .push(count: count, productID: id, quantity: quantity)
        case 1:
            guard let position = bytes.popFirst() else { return nil }
            self = .pop(toPosition: position)
        case 2:
            guard let index = bytes.popFirst() else { return nil }
            self = .selectTab(index: index)
        case 3:
            guard let position = bytes.popFirst(), let body = Self.string(&bytes) else { return nil }
            self = .present(over: position, body: body)
        case 4:
            guard let position = bytes.popFirst() else { return nil }
            self = .dismiss(from: position)
        case 5:
            guard let query = Self.string(&bytes), let scroll = Self.int8(&bytes) else { return nil }
            self = .editSearch(query: query, scroll: scroll)
        case 6:
            guard let position = bytes.popFirst(), let quantity = Self.int8(&bytes), let source = bytes.popFirst(),
                let text = Self.string(&bytes)
            else { return nil }
            self = .editProduct(at: position, quantity: quantity, source: source, text: text)
        case 7:
            guard let position = bytes.popFirst(), let body = Self.string(&bytes),
                let attachment = Self.string(&bytes)
            else { return nil }
            self = .editCompose(at: position, body: body, attachment: attachment)
        case 8:
            guard let region = Self.string(&bytes), let limit = Self.int8(&bytes) else { return nil }
            self = .editSettings(region: region, limit: limit)
        case 9:
            self = .save
        default:
            self = .relaunch
        }
    }

    /// The operation's bytes, as ``init(reading:)`` reads them (for the seed corpus: strings
    /// of at most 15 bytes).
    var bytes: [UInt8] {
        switch self {
        case .push(let count, let id, let quantity): [0, count] + Self.bytes(id) + [UInt8(bitPattern: quantity)]
        case .pop(let position): [1, position]
        case .selectTab(let index): [2, index]
        case .present(let position, let body): [3, position] + Self.bytes(body)
        case .dismiss(let position): [4, position]
        case .editSearch(let query, let scroll): [5] + Self.bytes(query) + [UInt8(bitPattern: scroll)]
        case .editProduct(let position, let quantity, let source, let text):
            [6, position, UInt8(bitPattern: quantity), source] + Self.bytes(text)
        case .editCompose(let position, let body, let attachment):
            [7, position] + Self.bytes(body) + Self.bytes(attachment)
        case .editSettings(let region, let limit): [8] + Self.bytes(region) + [UInt8(bitPattern: limit)]
        case .save: [9]
        case .relaunch: [10]
        }
    }

    /// Applies an edit to `tree`; saves and relaunches are the caller's.
    ///
    /// - Throws: ``HierarchyError`` when the tree refuses the edit.
    func apply(to tree: inout ScreenTree) throws(HierarchyError) {
        switch self {
        case .push(let count, let id, let quantity):
            let room = max(maximumStackCount - (tree["tabs/browse"]?.children.count ?? 0), 0)
            for index in 0..<min(1 + Int(count % 8), room) {
                let state = ProductScreen.State(productID: "\(id)-\(index)", quantity: Int(quantity) + index)
                try tree.push(ProductScreen(state: state), onto: "tabs/browse")
            }
        case .pop(let position):
            try tree.pop(toPosition: Int(position), in: "tabs/browse")
        case .selectTab(let index):
            try tree.selectTab(at: Int(index), in: "tabs")
        case .present(let position, let body):
            try tree.present(ComposeScreen(state: .init(body: body)), over: Self.product(at: position))
        case .dismiss(let position):
            try tree.dismiss(from: Self.product(at: position))
        case .editSearch(let query, let scroll):
            try tree.update(SearchScreen.self, at: "tabs/browse/search#0") {
                $0.state.query = query
                $0.state.scrollOffset = Double(scroll) / 4
                if query.isEmpty {
                    $0.state.filters.removeAll()
                } else if $0.state.filters.count < 4 {
                    $0.state.filters.append(query)
                }
            }
        case .editProduct(let position, let quantity, let source, let text):
            try tree.update(ProductScreen.self, at: Self.product(at: position)) {
                $0.state.quantity = Int(quantity)
                $0.state.source = Self.source(source, text)
                $0.state.variants[Int(quantity) % 4] = text
            }
        case .editCompose(let position, let body, let attachment):
            try tree.update(ComposeScreen.self, at: Self.compose(over: position)) {
                $0.state.body = body
                $0.state.attachment = attachment.isEmpty ? nil : Data(attachment.utf8)
            }
        case .editSettings(let region, let limit):
            try tree.update(SettingsScreen.self, at: "tabs/settings") {
                $0.state.region = region
                if $0.state.limits.count == 8 { $0.state.limits.removeAll() }
                $0.state.limits.append(limit)
            }
        case .save, .relaunch:
            break
        }
    }

    /// The path of the product screen at `position` on the browse stack.
    private static func product(at position: UInt8) -> NodeReference {
        NodeReference("tabs/browse/product#\(position)")
    }

    /// The path of the compose screen over the product at `position` on the browse stack.
    private static func compose(over position: UInt8) -> NodeReference {
        NodeReference("tabs/browse/product#\(position)/compose")
    }

    private static func source(_ kind: UInt8, _ text: String) -> ProductScreen.Source? {
        switch kind % 4 {
        case 0: nil
        case 1: .search(query: text)
        case 2: URL(string: "https://shop.example/p/\(kind)").map { .link($0) }
        default:
            UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F").map { .recommendation(id: $0, rank: Int(kind)) }
        }
    }

    private static func string(_ bytes: inout ArraySlice<UInt8>) -> String? {
        guard let length = bytes.popFirst().map({ Int($0 % 16) }), bytes.count >= length else { return nil }
        defer { bytes = bytes.dropFirst(length) }
        return String(decoding: bytes.prefix(length), as: UTF8.self)
    }

    private static func int8(_ bytes: inout ArraySlice<UInt8>) -> Int8? {
        bytes.popFirst().map { Int8(bitPattern: $0) }
    }

    private static func bytes(_ string: String) -> [UInt8] {
        [UInt8(string.utf8.count)] + Array(string.utf8)
    }
}

private typealias Coordinator = RestorationCoordinator<DefaultRestorationDelegate>

/// Runs a save program (the input after its tag).
private func runSaves(_ program: [UInt8]) async {
    let store = InMemoryStore()
    var coordinator = Coordinator(screens: fuzzScreens, store: store)
    var tree: ScreenTree
    do {
        tree = try fuzzScreens.makeInitialTree()
    } catch {
        fatalError("the save fuzzer's declaration has errors: \(error)")
    }
    var saved: ScreenTree?
    var saves = 0
    var bytes = program[...]
    var count = 0
    while count < maximumOperations, let operation = SaveOperation(reading: &bytes) {
        count += 1
        switch operation {
        case .save:
            do {
                try await coordinator.save(tree)
            } catch {
                fatalError("save \(saves + 1) of a valid tree threw: \(error)")
            }
            saved = tree
            saves += 1
        case .relaunch:
            (coordinator, tree) = await relaunch(from: store, expecting: saved, after: saves)
        default:
            try? operation.apply(to: &tree)
        }
    }
    _ = await relaunch(from: store, expecting: saved, after: saves)
}

/// Launches a new coordinator from `store` and traps unless it restored `saved` (the initial
/// tree when nothing was saved); returns the coordinator and its tree.
private func relaunch(
    from store: InMemoryStore, expecting saved: ScreenTree?, after saves: Int
) async -> (Coordinator, ScreenTree) {
    let coordinator = Coordinator(screens: fuzzScreens, store: store)
    let session: RestorationSession
    let expected: ScreenTree
    do {
        session = try await coordinator.launch()
        expected = try saved ?? fuzzScreens.makeInitialTree()
    } catch {
        fatalError("the save fuzzer's declaration has errors: \(error)")
    }
    if let difference = difference(restored: session.tree, saved: expected) {
        let outcome = session.report.freshReason.map { "fresh (\($0))" } ?? session.report.outcome.rawValue
        fatalError("a launch after \(saves) saves (\(outcome)) \(difference)")
    }
    return (coordinator, session.tree)
}

/// What differs between a restored tree and the tree saved, or nil when they are equal: the
/// first path restored or saved without the other, or the first whose screen or selection differs.
private func difference(restored: ScreenTree, saved: ScreenTree) -> String? {
    guard restored != saved else { return nil }
    let restoredPaths = restored.restorablePaths
    let savedPaths = saved.restorablePaths
    guard restoredPaths == savedPaths else {
        let index =
            restoredPaths.indices.first { $0 >= savedPaths.count || restoredPaths[$0] != savedPaths[$0] }
            ?? restoredPaths.count
        return "restored \(restoredPaths.count) paths, saved \(savedPaths.count); path \(index) is "
            + "\(restoredPaths.dropFirst(index).first.map { "\($0)" } ?? "none") restored, "
            + "\(savedPaths.dropFirst(index).first.map { "\($0)" } ?? "none") saved"
    }
    for path in savedPaths {
        guard let node = restored.node(at: path), let other = saved.node(at: path) else { continue }
        let sameScreen =
            switch (node.screen, other.screen) {
            case (nil, nil): true
            case (let left?, let right?): left.isEqual(to: right)
            default: false
            }
        if !sameScreen {
            return "restored \(path) as \(node.screen.map { "\($0)" } ?? "no screen"), "
                + "saved \(other.screen.map { "\($0)" } ?? "no screen")"
        }
        if node.selectedIndex != other.selectedIndex {
            return "restored \(path) with tab \(node.selectedIndex.map { "\($0)" } ?? "none") selected, "
                + "saved \(other.selectedIndex.map { "\($0)" } ?? "none")"
        }
    }
    return "restored the saved paths and screens, in a tree not equal to the saved one"
}

/// The save programs of the seed corpus, by file name: one that goes through every operation,
/// and one whose stack grows and shrinks between saves.
let saveSeeds: [(name: String, operations: [SaveOperation])] = [
    (
        "save-sequence",
        [
            .editSearch(query: "oat milk", scroll: 8), .save,
            .push(count: 1, productID: "p", quantity: 1),
            .editProduct(at: 1, quantity: 3, source: 1, text: "oat"), .save,
            .present(over: 2, body: "Is it"), .editCompose(at: 2, body: "Is it vegan?", attachment: "jpg"), .save,
            .selectTab(index: 1), .editSettings(region: "us", limit: 5), .save, .relaunch,
            .pop(toPosition: 1), .push(count: 0, productID: "q", quantity: 2), .dismiss(from: 2), .save,
            .selectTab(index: 0), .pop(toPosition: 0), .save,
        ]
    ),
    (
        "save-sequence-steps",
        [
            .push(count: 0, productID: "a", quantity: 1), .save,
            .push(count: 0, productID: "b", quantity: 1), .save,
            .push(count: 0, productID: "c", quantity: 1), .save,
            .pop(toPosition: 1), .save, .relaunch,
            .push(count: 1, productID: "d", quantity: -1), .save,
            .editProduct(at: 3, quantity: 0, source: 3, text: "e"), .pop(toPosition: 2), .save,
        ]
    ),
]

/// `operations` as a save input: ``savesTag`` and the operations' bytes, which must read back
/// as `operations` (strings of at most 15 bytes).
func saveInput(_ operations: [SaveOperation]) -> Data {
    let program = operations.flatMap(\.bytes)
    var bytes = program[...]
    var read: [SaveOperation] = []
    while let operation = SaveOperation(reading: &bytes) { read.append(operation) }
    precondition(read == operations, "a seed's operations do not read back from their bytes")
    return Data(savesTag + program)
}
