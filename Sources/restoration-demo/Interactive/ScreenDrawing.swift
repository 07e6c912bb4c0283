import Foundation
import StateRestoration

/// The interactive app's screen, drawn whole with ANSI escape sequences: the
/// tabs, the visible screen with its state, the hierarchy a save would write,
/// a status line and the keys of the screen.
enum ScreenDrawing {
    /// Switches to the alternate screen and hides the cursor.
    static let enter = "\u{1B}[?1049h\u{1B}[?25l"
    /// Shows the cursor and returns to the normal screen.
    static let leave = "\u{1B}[?25h\u{1B}[?1049l"

    private static let bold = "\u{1B}[1m"
    private static let inverse = "\u{1B}[7m"
    private static let dim = "\u{1B}[2m"
    private static let plain = "\u{1B}[0m"
    private static let rule = dim + String(repeating: "─", count: 72) + plain

    /// The whole screen for the app's state.
    ///
    /// It reads the model through the projections the keys write (the tabs, the
    /// visible screen) and, for the hierarchy a save writes, the whole tree:
    /// drawn inside `withObservationTracking` (``TerminalScreen``), a change of
    /// any of it asks for the next frame.
    @MainActor
    static func frame(of app: ShopApp) -> String {
        var lines = [bold + "restoration-demo" + plain + "  a shop whose state survives its process", ""]
        let (names, selected) = app.tabs
        let tabs = names.map { name in
            name == selected ? inverse + " \(name.capitalized) " + plain : " \(name.capitalized) "
        }
        lines.append(tabs.joined(separator: "  ") + dim + "   ←/→ switch tabs" + plain)
        lines.append(rule)
        let currency = app.model.state(of: SettingsScreen.self, at: "settings")?.wrappedValue.currency ?? .euro
        if let visible = app.visible, let screen = app.model.tree[visible.entry.reference]?.screen as? any ShopScreen {
            lines.append(bold + title(of: screen) + plain + dim + "   " + visible.path + plain)
            lines.append("")
            lines += body(of: screen, currency: currency)
            lines.append("")
            lines.append(dim + keys(of: screen) + plain)
        }
        lines.append(rule)
        lines.append("What a save writes (Ctrl-Z saves and suspends):")
        lines += HierarchyLines.lines(of: app.model.tree).map { "  " + $0 }
        lines.append(rule)
        lines.append(app.status)
        return "\u{1B}[H\u{1B}[2J" + lines.joined(separator: "\r\n")
    }

    private static func title(of screen: any ShopScreen) -> String {
        switch screen {
        case let results as ResultsScreen: "Results for \"\(results.state.query)\""
        case let product as ProductScreen: Catalog.product(product.state.productID)?.name ?? product.state.productID
        case is ComposeScreen: "Message to the shop"
        case is SettingsScreen: "Settings"
        default: "Search"
        }
    }

    private static func body(of screen: any ShopScreen, currency: Currency) -> [String] {
        switch screen {
        case let search as SearchScreen:
            let filters = search.state.filters
            let count = Catalog.search(search.state.query, filters: filters).count
            return [
                "Search: " + search.state.query + inverse + " " + plain,
                "\(filters.organicOnly ? "[x]" : "[ ]") organic only    \(filters.sortedByPrice ? "[x]" : "[ ]") sorted by price",
                "\(count) products match.",
            ]
        case let results as ResultsScreen:
            return results.products.enumerated().map { index, product in
                let row =
                    product.name.padding(toLength: 30, withPad: " ", startingAt: 0)
                    + currency.format(cents: product.priceInCents).padding(toLength: 12, withPad: " ", startingAt: 0)
                    + (product.isOrganic ? "organic" : "")
                return index == results.state.selectedIndex ? inverse + "› " + row + plain : "  " + row
            }
        case let product as ProductScreen:
            guard let item = Catalog.product(product.state.productID) else { return ["No such product."] }
            return [
                "\(item.id)   \(currency.format(cents: item.priceInCents))\(item.isOrganic ? "   organic" : "")",
                "Quantity: \(product.state.quantity)",
            ]
        case let compose as ComposeScreen:
            return ["Subject: \(compose.state.subject)", "Message: " + compose.state.body + inverse + " " + plain]
        case let settings as SettingsScreen:
            return Currency.allCases.map { currency in
                currency == settings.state.currency
                    ? inverse + "› Prices in \(currency.rawValue)" + plain : "  Prices in \(currency.rawValue)"
            }
        default:
            return []
        }
    }

    private static func keys(of screen: any ShopScreen) -> String {
        switch screen {
        case is SearchScreen: "type: query  Tab: organic  Shift-Tab: by price  Enter: results  Esc: clear  Ctrl-Q: quit"
        case is ResultsScreen: "↑/↓: select  Enter: open  Esc: back  q: quit"
        case is ProductScreen: "+/-: quantity  m or Enter: write to the shop  Esc: back  q: quit"
        case is ComposeScreen: "type: message  Enter: send  Esc: discard  Ctrl-Q: quit"
        default: "↑/↓: currency  q: quit"
        }
    }
}
