import Foundation
public import StateRestorationTesting

// The samples the harness round-trips for every screen of `TestApp`.

extension SearchScreen: RestorationSampling {
    /// An empty search, and one with text and an offset at the edges of what encodes.
    public static var restorationSamples: [SearchScreen] {
        [SearchScreen(), SearchScreen(state: .init(query: "café ☕️ \u{0}", scrollOffset: -1e300))]
    }
}

extension ProductScreen: RestorationSampling {
    /// A plain product, and one with an empty identifier, the largest quantity and a view date.
    public static var restorationSamples: [ProductScreen] {
        [
            ProductScreen(state: .init(productID: "p-1")),
            ProductScreen(state: .init(productID: "", quantity: .max, viewedAt: Date(timeIntervalSince1970: 1e9))),
        ]
    }
}

extension ComposeScreen: RestorationSampling {
    /// A message of two lines.
    public static var restorationSamples: [ComposeScreen] {
        [ComposeScreen(state: .init(to: "a@b.c", body: "line 1\nline 2"))]
    }
}

extension SettingsScreen: RestorationSampling {
    /// Another region than the default.
    public static var restorationSamples: [SettingsScreen] { [SettingsScreen(state: .init(region: "jp"))] }
}

extension SplitScreen: RestorationSampling {
    /// Another ratio than the default.
    public static var restorationSamples: [SplitScreen] { [SplitScreen(state: .init(ratio: 0.75))] }
}

extension NoteScreen: RestorationSampling {
    /// A note.
    public static var restorationSamples: [NoteScreen] { [NoteScreen(state: .init(text: "pinned"))] }
}
