import Observation
import StateRestoration

/// The shop app: the window's ``RestorationModel``, and what each key does to it.
///
/// Every key changes the model through a projection, as a SwiftUI control
/// changes it through a binding:
///
/// - Enter on the search or a result opens a screen: an entry appended to the
///   shop stack's ``RestorationModel/path(of:)``;
/// - Esc goes back: the path set to the screens below the visible one;
/// - ← and → set ``RestorationModel/selectedTab(in:)``;
/// - typing, ↑ and ↓ set the visible screen's ``RestorationModel/state(of:at:)``;
/// - `m` on a product presents a message through
///   ``RestorationModel/presented(over:)``, and Enter or Esc dismisses it.
///
/// A change the model refuses lands in ``RestorationModel/lastRefusal``, which
/// the status line shows. Driven the same way by the terminal (``InteractiveApp``)
/// and by the scripted session's child process (``AppProcess``), so both show
/// the same app.
@MainActor
@Observable
final class ShopApp {
    /// The version written into every archive.
    static let version = "demo 1.0"

    /// The window's model: the hierarchy the screen shows and a save writes.
    let model: RestorationModel<DefaultRestorationDelegate>
    /// One line about the last thing that happened, for the status bar.
    var status = ""

    /// What happened to a key.
    enum Outcome: Equatable {
        case handled
        /// The model refused the change the key asked for.
        case refused(HierarchyError)
        case quit
    }

    /// The screen the user sees, as the projections take it.
    struct VisibleScreen {
        /// The screen's entry.
        var entry: ScreenEntry
        /// Its restoration path, such as `tabs/shop/product#2/compose`.
        var path: String
        /// The screen it is presented over, if any.
        var presenter: ScreenEntry?
    }

    init(model: RestorationModel<DefaultRestorationDelegate>) {
        self.model = model
    }

    /// The shop tab's navigation path: the screens above its search screen.
    private var shopPath: Projection<[ScreenEntry]> { model.path(of: "shop") }

    /// The names of the tabs, and the selected one.
    var tabs: (names: [String], selected: String) {
        (model.children(of: "tabs").wrappedValue.compactMap(\.identifier), model.selectedTab(in: "tabs").wrappedValue)
    }

    /// The screen the user sees: the selected tab's top screen, or what is
    /// presented over it.
    var visible: VisibleScreen? {
        let tab = tabs.selected
        guard var entry = model.children(of: "tabs").wrappedValue.first(where: { $0.identifier == tab }) else {
            return nil
        }
        var path = "tabs/\(tab)"
        if entry.kind == .stack {
            let screens = model.screens(of: entry.reference).wrappedValue
            guard let top = screens.last else { return nil }
            path += "/\(top.identifier ?? "?")#\(screens.count - 1)"
            entry = top
        }
        var presenter: ScreenEntry?
        while let presented = model.presented(over: entry.reference).wrappedValue {
            path += "/\(presented.identifier ?? "?")"
            (presenter, entry) = (entry, presented)
        }
        return VisibleScreen(entry: entry, path: path, presenter: presenter)
    }

    /// Does what a key does on the visible screen.
    ///
    /// ← and → switch tabs everywhere; the other keys depend on the screen:
    /// typing edits the query or the message, ↑ and ↓ move the selection, Enter
    /// opens, Esc goes back, and `q` quits where it is not typed into a field.
    ///
    /// - Returns: What happened; a refusal is on the status line too.
    func handle(_ key: Key) -> Outcome {
        status = ""
        model.lastRefusal = nil
        let outcome = perform(key)
        // The projections' setters report a refusal to the model, as a binding's would.
        if let refusal = model.lastRefusal {
            status = "Refused: \(refusal)"
            return .refused(refusal)
        }
        return outcome
    }

    private func perform(_ key: Key) -> Outcome {
        guard let visible else { return .handled }
        let screen = visible.entry.reference
        let takesText = visible.entry.typeKey == SearchScreen.typeKey || visible.entry.typeKey == ComposeScreen.typeKey
        switch key {
        case .quit: return .quit
        case .character("q") where !takesText: return .quit
        case .left: switchTab(by: -1)
        case .right: switchTab(by: 1)
        default:
            if let search = model.state(of: SearchScreen.self, at: screen) {
                self.search(key, search)
            } else if let results = model.state(of: ResultsScreen.self, at: screen) {
                self.results(key, results, visible)
            } else if let product = model.state(of: ProductScreen.self, at: screen) {
                self.product(key, product, visible)
            } else if let message = model.state(of: ComposeScreen.self, at: screen) {
                compose(key, message, visible)
            } else if let settings = model.state(of: SettingsScreen.self, at: screen) {
                self.settings(key, settings)
            }
        }
        return .handled
    }

    /// Selects the tab `offset` places from the selected one, wrapping around.
    private func switchTab(by offset: Int) {
        let (names, selected) = tabs
        guard let index = names.firstIndex(of: selected) else { return }
        model.selectedTab(in: "tabs").wrappedValue = names[(index + offset + names.count) % names.count]
    }

    /// Goes back from a screen of the shop stack: its path becomes the screens below it.
    private func goBack(from entry: ScreenEntry) {
        shopPath.wrappedValue = Array(shopPath.wrappedValue.prefix { $0 != entry })
    }

    private func search(_ key: Key, _ search: Projection<SearchScreen.State>) {
        switch key {
        case .character(let character): search.wrappedValue.query.append(character)
        case .backspace: _ = search.wrappedValue.query.popLast()
        case .escape: search.wrappedValue.query = ""
        case .tab: search.wrappedValue.filters.organicOnly.toggle()
        case .backTab: search.wrappedValue.filters.sortedByPrice.toggle()
        case .enter:
            let results = ResultsScreen(
                state: .init(query: search.wrappedValue.query, filters: search.wrappedValue.filters))
            if results.products.isEmpty {
                status = "Nothing matches \"\(results.state.query)\"."
            } else {
                shopPath.wrappedValue.append(ScreenEntry(results))
            }
        default: break
        }
    }

    private func results(_ key: Key, _ results: Projection<ResultsScreen.State>, _ visible: VisibleScreen) {
        let products = ResultsScreen(state: results.wrappedValue).products
        let selected = results.wrappedValue.selectedIndex
        switch key {
        case .up, .down:
            let moved = selected + (key == .down ? 1 : -1)
            results.wrappedValue.selectedIndex = min(max(moved, 0), max(products.count - 1, 0))
        case .enter where products.indices.contains(selected):
            shopPath.wrappedValue.append(ScreenEntry(ProductScreen(state: .init(productID: products[selected].id))))
        case .escape: goBack(from: visible.entry)
        default: break
        }
    }

    private func product(_ key: Key, _ product: Projection<ProductScreen.State>, _ visible: VisibleScreen) {
        switch key {
        case .character("+"), .up: product.wrappedValue.quantity += 1
        case .character("-"), .down: product.wrappedValue.quantity = max(1, product.wrappedValue.quantity - 1)
        case .character("m"), .enter:
            let id = product.wrappedValue.productID
            let message = ComposeScreen(state: .init(subject: "About \(Catalog.product(id)?.name ?? id)"))
            model.presented(over: visible.entry.reference).wrappedValue = ScreenEntry(message)
        case .escape: goBack(from: visible.entry)
        default: break
        }
    }

    private func compose(_ key: Key, _ message: Projection<ComposeScreen.State>, _ visible: VisibleScreen) {
        switch key {
        case .character(let character): message.wrappedValue.body.append(character)
        case .backspace: _ = message.wrappedValue.body.popLast()
        case .enter, .escape:
            guard let presenter = visible.presenter else { return }
            model.presented(over: presenter.reference).wrappedValue = nil
            status = key == .enter ? "Message sent." : "Message discarded."
        default: break
        }
    }

    private func settings(_ key: Key, _ settings: Projection<SettingsScreen.State>) {
        guard key == .up || key == .down else { return }
        let all = Currency.allCases
        let index = all.firstIndex(of: settings.wrappedValue.currency) ?? 0
        settings.wrappedValue.currency = all[(index + (key == .down ? 1 : all.count - 1)) % all.count]
    }
}
