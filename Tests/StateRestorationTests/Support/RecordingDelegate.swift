import StateRestoration
import TestScreens

/// A delegate that records every call, and can refuse, extend or skip.
struct RecordingDelegate: RestorationDelegate {
    struct AppState: Codable, Sendable, Equatable {
        var cartCount: Int
        var lastSync: String
    }

    let probe: Probe
    var allowRestore = true
    var allowSave = true
    var appState: AppState?
    var metadata: [String: String] = [:]
    /// Paths for which `screen(forIdentifierPath:request:)` returns nil.
    var refusedPaths: Set<IdentifierPath> = []
    /// An extension added in did-decode.
    var appExtension: (@Sendable () async throws -> Void)?

    init(probe: Probe) {
        self.probe = probe
    }

    func willFinishLaunching(_ context: RestorationContext) async {
        probe.record("will-finish-launching")
    }

    func shouldRestore(_ archive: ArchiveInfo) async -> Bool {
        probe.record("should-restore")
        return allowRestore
    }

    func screen(forIdentifierPath path: IdentifierPath, request: ScreenRequest) async -> (any RestorableScreen)? {
        probe.record("make \(path)")
        if refusedPaths.contains(path) { return nil }
        guard var screen = request.makeScreen() as? any ProbedScreen else { return request.makeScreen() }
        screen.probe = probe
        return screen
    }

    func didDecodeRestorableState(_ state: AppState?, context: RestorationContext) async {
        probe.record("did-decode \(state.map { "\($0.cartCount)" } ?? "nil")")
        if let appExtension { context.extendRestoration("app extension", operation: appExtension) }
    }

    func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {
        probe.record("did-finish-launching \(report.outcome.rawValue)")
    }

    func shouldSave(_ metadata: inout RestorationMetadata) async -> Bool {
        probe.record("should-save")
        for (key, value) in self.metadata { try? metadata.set(value, forKey: key) }
        return allowSave
    }

    func willEncodeRestorableState() async -> AppState? {
        probe.record("will-encode")
        return appState
    }
}
