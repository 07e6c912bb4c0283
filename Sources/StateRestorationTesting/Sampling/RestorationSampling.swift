public import StateRestoration

/// A screen type that offers sample instances for testing that its state
/// survives a relaunch.
///
/// ``RestorationHarness/expectEveryScreenRoundTrips(samples:sourceLocation:)``
/// saves each sample of every declared screen type where the declaration puts it,
/// relaunches, and checks that it comes back equal. Give samples that cover the
/// state's corners: empty and long text, optionals set and nil, dates, the
/// largest numbers, non-ASCII text.
///
/// ```swift
/// extension SearchScreen: RestorationSampling {
///     static var restorationSamples: [SearchScreen] {
///         [SearchScreen(), SearchScreen(state: .init(query: "café ☕️", filters: ["organic"], scrollOffset: 1e9))]
///     }
/// }
/// ```
///
/// Conform in the test target, so the app ships without samples.
public protocol RestorationSampling: RestorableScreen {
    /// Instances whose states the round-trip check saves and restores, one by one.
    static var restorationSamples: [Self] { get }
}
