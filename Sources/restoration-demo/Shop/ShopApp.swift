import StateRestoration

/// The shop app's behaviour: what each key does to the live hierarchy.
///
/// A value, driven the same way by the terminal (``InteractiveApp``) and by the
/// scripted session's child process (``AppProcess``), so both show the same app.
struct ShopApp {
    /// The version written into every archive.
    static let version = "demo 1.0"

    /// The live hierarchy: what the screen shows and what a save writes.
    var tree: ScreenTree
    /// One line about the last thing that happened, for the status bar.
    var status = ""

    /// What the app should do after a key.
    enum Outcome: Equatable {
        case handled
        case quit
    }

    /// The screen the user sees: the selected tab's top screen, or what is
    /// presented over it; with its restoration path.
    var visible: (path: String, screen: any ShopScreen)? {
        guard let tab = tree.root.selectedChild, let tabName = tab.identifier else { return nil }
        var path = "tabs/\(tabName)"
        var node = tab
        if node.kind == .stack, let top = node.children.last, let identifier = top.identifier {
            path += "/\(identifier)#\(node.children.count - 1)"
            node = top
        }
        while let presented = node.presented, let identifier = presented.identifier {
            path += "/\(identifier)"
            node = presented
        }
        return (node.screen as? any ShopScreen).map { (path, $0) }
    }

    /// The names of the tabs, and the index of the selected one.
    var tabs: (names: [String], selected: Int) {
        (tree.root.children.map { $0.identifier ?? "?" }, tree.root.selectedIndex ?? 0)
    }

    /// Does what a key does on the visible screen.
    ///
    /// ← and → switch tabs everywhere; the other keys depend on the screen:
    /// typing edits the query or the message, ↑ and ↓ move the selection, Enter
    /// opens, Esc goes back, and `q` quits where it is not typed into a field.
    mutating func handle(_ key: Key) throws(HierarchyError) -> Outcome {
        status = ""
        guard let (path, screen) = visible else { return .handled }
        let reference = NodeReference(path)
        switch key {
        case .quit: return .quit
        case .left, .right:
            let (names, selected) = tabs
            let next = (selected + (key == .right ? 1 : names.count - 1)) % max(names.count, 1)
            try tree.selectTab(at: next, in: "tabs")
            return .handled
        default: break
        }
        switch screen {
        case is SearchScreen: try search(key, at: reference)
        case let results as ResultsScreen:
            if key == .character("q") { return .quit }
            try self.results(key, results, at: reference)
        case let product as ProductScreen:
            if key == .character("q") { return .quit }
            try self.product(key, product, at: reference)
        case is ComposeScreen: try compose(key, at: reference, over: path)
        case is SettingsScreen:
            if key == .character("q") { return .quit }
            try settings(key, at: reference)
        default: break
        }
        return .handled
    }

    private mutating func search(_ key: Key, at reference: NodeReference) throws(HierarchyError) {
        var search = SearchScreen()
        try tree.update(SearchScreen.self, at: reference) { screen in
            switch key {
            case .character(let character): screen.state.query.append(character)
            case .backspace: _ = screen.state.query.popLast()
            case .escape: screen.state.query = ""
            case .tab: screen.state.filters.organicOnly.toggle()
            case .backTab: screen.state.filters.sortedByPrice.toggle()
            default: break
            }
            search = screen
        }
        guard key == .enter else { return }
        let results = ResultsScreen(state: .init(query: search.state.query, filters: search.state.filters))
        if results.products.isEmpty {
            status = "Nothing matches \"\(search.state.query)\"."
        } else {
            try tree.push(results, onto: "shop")
        }
    }

    private mutating func results(_ key: Key, _ results: ResultsScreen, at reference: NodeReference)
        throws(HierarchyError)
    {
        let products = results.products
        switch key {
        case .up, .down:
            try tree.update(ResultsScreen.self, at: reference) { screen in
                let moved = screen.state.selectedIndex + (key == .down ? 1 : -1)
                screen.state.selectedIndex = min(max(moved, 0), max(products.count - 1, 0))
            }
        case .enter where products.indices.contains(results.state.selectedIndex):
            try tree.push(
                ProductScreen(state: .init(productID: products[results.state.selectedIndex].id)), onto: "shop")
        case .escape: try tree.pop(from: "shop")
        default: break
        }
    }

    private mutating func product(_ key: Key, _ product: ProductScreen, at reference: NodeReference)
        throws(HierarchyError)
    {
        switch key {
        case .character("+"), .up:
            try tree.update(ProductScreen.self, at: reference) { $0.state.quantity += 1 }
        case .character("-"), .down:
            try tree.update(ProductScreen.self, at: reference) { $0.state.quantity = max(1, $0.state.quantity - 1) }
        case .character("m"), .enter:
            let name = Catalog.product(product.state.productID)?.name ?? product.state.productID
            try tree.present(ComposeScreen(state: .init(subject: "About \(name)")), over: reference)
        case .escape: try tree.pop(from: "shop")
        default: break
        }
    }

    private mutating func compose(_ key: Key, at reference: NodeReference, over path: String) throws(HierarchyError) {
        let presenter = NodeReference(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
        switch key {
        case .character(let character):
            try tree.update(ComposeScreen.self, at: reference) { $0.state.body.append(character) }
        case .backspace:
            try tree.update(ComposeScreen.self, at: reference) { _ = $0.state.body.popLast() }
        case .enter:
            try tree.dismiss(from: presenter)
            status = "Message sent."
        case .escape:
            try tree.dismiss(from: presenter)
            status = "Message discarded."
        default: break
        }
    }

    private mutating func settings(_ key: Key, at reference: NodeReference) throws(HierarchyError) {
        guard key == .up || key == .down else { return }
        try tree.update(SettingsScreen.self, at: reference) { screen in
            let all = Currency.allCases
            let index = all.firstIndex(of: screen.state.currency) ?? 0
            screen.state.currency = all[(index + (key == .down ? 1 : all.count - 1)) % all.count]
        }
    }
}
