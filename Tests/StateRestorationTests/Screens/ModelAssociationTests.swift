import StateRestoration
import TestScreens
import Testing

/// A list of products whose selection and scroll position are saved as product
/// identifiers, and resolved against the catalogue the app has at launch.
private struct ProductListScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "product-list"
    struct State: Codable, Sendable, Equatable {
        var selection = ModelSelection<String>()
    }
    var state = State()
    /// The current data: injected by the delegate when the screen is made.
    var productIDs: [String] = []
    /// What the live list shows.
    var selectedRows: [Int] = []
    var firstVisibleRow: Int?

    init(state: State) { self.state = state }
    init(productIDs: [String]) { self.productIDs = productIDs }

    mutating func willEncodeRestorableState() {
        state.selection = ModelSelection(
            identifiers: productIDs, selectedPositions: selectedRows, firstVisiblePosition: firstVisibleRow)
    }

    mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
        self.state = state
        let resolved = state.selection.resolve(against: productIDs, reportingTo: context)
        selectedRows = resolved.selectedPositions
        firstVisibleRow = resolved.firstVisiblePosition
    }
}

/// Hands each restored list the catalogue of this launch, and records the
/// diagnostics the launch collected.
private struct CatalogueDelegate: RestorationDelegate {
    let productIDs: [String]
    let probe: Probe

    func screen(forIdentifierPath path: IdentifierPath, request: ScreenRequest) async -> (any RestorableScreen)? {
        guard var list = request.makeScreen() as? ProductListScreen else { return request.makeScreen() }
        list.productIDs = productIDs
        return list
    }

    func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {
        for diagnostic in context.diagnostics { probe.record(diagnostic.description) }
    }
}

@Suite struct ModelAssociationTests {
    private let declaration = ScreenDeclaration {
        Tabs("tabs") {
            Stack("browse", root: ProductListScreen(productIDs: []))
            Screen(SettingsScreen(), id: "settings")
        }
    }
    private let listPath: NodeReference = "tabs/browse/product-list#0"

    /// Saves a list showing p-1…p-6 with p-2 and p-5 selected and p-3 at the top,
    /// then relaunches with `catalogue` as the current data.
    private func relaunch(with catalogue: [String]) async throws -> (RestorationSession, Probe) {
        let storage = InMemoryStore.Storage()
        let saving = RestorationCoordinator(
            screens: declaration, store: InMemoryStore(storage: storage),
            delegate: CatalogueDelegate(productIDs: [], probe: Probe()))
        let host = try await TreeHost.launched(by: saving)
        try await MainActor.run { [listPath] in
            try host.tree.update(ProductListScreen.self, at: listPath) { list in
                list.productIDs = ["p-1", "p-2", "p-3", "p-4", "p-5", "p-6"]
                list.selectedRows = [1, 4]
                list.firstVisibleRow = 2
            }
        }
        try await saving.save(host)

        let probe = Probe()
        let restoring = RestorationCoordinator(
            screens: declaration, store: InMemoryStore(storage: storage),
            delegate: CatalogueDelegate(productIDs: catalogue, probe: probe))
        return (try await restoring.launch(), probe)
    }

    @Test("the rows come back where the products are now, after reordering and insertion")
    func rowsFollowTheirProducts() async throws {
        let catalogue = ["p-new", "p-6", "p-5", "p-4", "p-3", "p-2", "p-1"]
        let (session, probe) = try await relaunch(with: catalogue)
        #expect(session.report.outcome == .restored)
        let list = try #require(session.tree.screen(ProductListScreen.self, at: listPath))
        #expect(list.selectedRows.map { catalogue[$0] } == ["p-2", "p-5"])
        #expect(list.firstVisibleRow.map { catalogue[$0] } == "p-3")
        #expect(list.state.selection.selectedIdentifiers == ["p-2", "p-5"])
        #expect(probe.recorded.isEmpty)
    }

    @Test("products deleted since saving are dropped and reported, with the screen's path, to the delegate")
    func deletedProductsAreReported() async throws {
        let catalogue = ["p-6", "p-5", "p-4", "p-1"]
        let (session, probe) = try await relaunch(with: catalogue)
        #expect(session.report.outcome == .restored)
        #expect(session.report.skipped.isEmpty)
        let list = try #require(session.tree.screen(ProductListScreen.self, at: listPath))
        #expect(list.selectedRows == [1])
        #expect(list.firstVisibleRow.map { catalogue[$0] } == "p-4")
        #expect(
            probe.recorded == [
                "tabs/browse/product-list#0: selected row p-2 no longer exists; dropped from the selection",
                "tabs/browse/product-list#0: first visible row p-3 no longer exists; scrolled to its nearest surviving neighbour p-4 (row 2)",
            ])
    }
}
