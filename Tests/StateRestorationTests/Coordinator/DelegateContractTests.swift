import Foundation
import Synchronization
import StateRestoration
import TestScreens
import Testing

/// Counts the screens made with `init(state:)`, by path of the state's note.
private let madeWithState = Mutex<[String]>([])

/// A screen whose `init(state:)` must run only when a screen is made from it.
private struct CountedScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "counted"
    struct State: Codable, Sendable, Equatable { var note: String }
    var state: State
    var madeBy = "init(state:)"

    init(state: State) {
        self.state = state
        madeWithState.withLock { $0.append(state.note) }
    }

    init(note: String, madeBy: String) {
        self.state = State(note: note)
        self.madeBy = madeBy
    }
}

/// Another screen type with the same State type.
private struct TwinScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "twin"
    var state: CountedScreen.State
}

/// Makes `made-by-delegate` itself, refuses `refused`, and lets the others be made from their state.
private struct MakingDelegate: RestorationDelegate {
    let requests = Probe()

    func screen(forIdentifierPath path: IdentifierPath, request: ScreenRequest) async -> (any RestorableScreen)? {
        let state = request.state(as: CountedScreen.self)
        let twin = request.state(as: TwinScreen.self)
        requests.record("\(path.last ?? "?") \(state?.note ?? "nil") \(twin?.note ?? "nil")")
        switch path.last {
        case "refused": return nil
        case "made-by-delegate": return CountedScreen(note: state?.note ?? "", madeBy: "delegate")
        default: return request.makeScreen()
        }
    }
}

private final class Wallet: RestorableObject {
    struct State: Codable, Sendable { var balance: Int }
    let balance: Mutex<Int>
    init(balance: Int) { self.balance = Mutex(balance) }
    func encodeRestorableState() async -> State { State(balance: balance.withLock { $0 }) }
    func decodeRestorableState(_ state: State) async { balance.withLock { $0 = state.balance } }
}

/// Looks the wallet up from each of its three callbacks.
private struct WalletDelegate: RestorationDelegate {
    let seen = Probe()

    private func record(_ step: String, _ context: RestorationContext) {
        let wallet = context.object(Wallet.self, identifier: "wallet")
        seen.record("\(step) \(wallet.map { "\($0.balance.withLock { $0 })" } ?? "nil")")
    }

    func willFinishLaunching(_ context: RestorationContext) async { record("will-finish", context) }
    func didDecodeRestorableState(_ state: Int?, context: RestorationContext) async { record("did-decode", context) }
    func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {
        record("did-finish", context)
    }
    func willEncodeRestorableState() async -> Int? { nil }
}

@Suite(.serialized) struct DelegateContractTests {
    private let declaration = ScreenDeclaration {
        Tabs("tabs") {
            Screen(CountedScreen(note: "", madeBy: "declaration"), id: "refused")
            Screen(CountedScreen(note: "", madeBy: "declaration"), id: "made-by-delegate")
            Screen(CountedScreen(note: "", madeBy: "declaration"), id: "from-state")
            Screen(TwinScreen(state: .init(note: "")), id: "twin")
        }
    }

    private func savedTree() throws -> ScreenTree {
        var tree = try declaration.makeInitialTree()
        for (id, note) in [("refused", "r"), ("made-by-delegate", "d"), ("from-state", "s")] {
            try tree.update(CountedScreen.self, at: NodeReference("tabs/\(id)")) { $0.state.note = note }
        }
        try tree.update(TwinScreen.self, at: "tabs/twin") { $0.state.note = "t" }
        return tree
    }

    @Test(
        "init(state:) runs only for a screen the delegate makes from the request, and state(as:) checks the screen type"
    )
    func screenMadeOnlyWhenAsked() async throws {
        let store = InMemoryStore()
        try await RestorationCoordinator(screens: declaration, store: store).save(try savedTree())
        madeWithState.withLock { $0 = [] }

        let delegate = MakingDelegate()
        let session = try await RestorationCoordinator(screens: declaration, store: store, delegate: delegate).launch()

        #expect(madeWithState.withLock { $0 } == ["s"])
        #expect(
            delegate.requests.recorded == [
                "refused r nil", "made-by-delegate d nil", "from-state s nil", "twin nil t",
            ])
        #expect(session.report.skipped.map(\.path) == ["tabs/refused"])
        #expect(session.tree.screen(CountedScreen.self, at: "tabs/refused")?.madeBy == "declaration")
        #expect(session.tree.screen(CountedScreen.self, at: "tabs/made-by-delegate")?.madeBy == "delegate")
        #expect(session.tree.screen(CountedScreen.self, at: "tabs/from-state")?.madeBy == "init(state:)")
        #expect(session.tree.screen(TwinScreen.self, at: "tabs/twin")?.state.note == "t")
    }

    @Test("the delegate's did-decode and did-finish contexts find the restored shared object; will-finish finds none")
    func objectsInDelegateContexts() async throws {
        let store = InMemoryStore()
        let saving = RestorationCoordinator(screens: declaration, store: store)
        await saving.register(Wallet(balance: 120), identifier: "wallet")
        try await saving.save(try savedTree())

        let delegate = WalletDelegate()
        let restoring = RestorationCoordinator(screens: declaration, store: store, delegate: delegate)
        let wallet = Wallet(balance: 0)
        await restoring.register(wallet, identifier: "wallet")
        _ = try await restoring.launch()
        #expect(delegate.seen.recorded == ["will-finish nil", "did-decode 120", "did-finish 120"])

        // A fresh launch: the registered object, with its own state.
        let freshDelegate = WalletDelegate()
        let fresh = RestorationCoordinator(screens: declaration, store: InMemoryStore(), delegate: freshDelegate)
        await fresh.register(Wallet(balance: 5), identifier: "wallet")
        _ = try await fresh.launch()
        #expect(freshDelegate.seen.recorded == ["will-finish nil", "did-finish 5"])
    }
}
