import Synchronization

/// What a screen or the delegate gets while a launch restores: where it is, what
/// archive is being restored, the means to extend the restoration with
/// asynchronous work, and a place to report what did not come back as saved.
///
/// `extendRestoration` is UIKit's `extendStateRestoration()` and
/// `completeStateRestoration()` in one call that cannot be left unpaired: the
/// coordinator awaits every extension (up to its timeout, then cancels what is
/// left), while the app already shows the restored screens, before it calls
/// ``RestorableScreen/restorationDidFinish(_:)`` on those still in the app's tree.
///
/// ```swift
/// mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
///     self.state = state
///     context.extendRestoration("log in") { try await session.logInAutomatically() }
/// }
/// ```
public final class RestorationContext: Sendable {
    /// The path of the screen being restored; nil for the app delegate.
    public let identifierPath: IdentifierPath?

    /// The archive being restored; nil on a fresh launch, and in
    /// ``RestorationDelegate/willFinishLaunching(_:)``, before the archive is read.
    public let archiveInfo: ArchiveInfo?

    let extensions: RestorationExtensions

    /// The shared objects registered with the coordinator, and with the
    /// ``RestorationScenes`` that made it; empty in
    /// ``RestorationDelegate/willFinishLaunching(_:)``, before any is restored.
    let objects: [String: any RestorableObject]

    init(
        identifierPath: IdentifierPath?, archiveInfo: ArchiveInfo?, extensions: RestorationExtensions,
        objects: [String: any RestorableObject] = [:]
    ) {
        self.identifierPath = identifierPath
        self.archiveInfo = archiveInfo
        self.extensions = extensions
        self.objects = objects
    }

    /// The shared object registered under an identifier, with the coordinator or with
    /// the ``RestorationScenes`` that made it (the coordinator's own object, when both
    /// have one under the identifier).
    ///
    /// Every screen that asks for one identifier gets the one instance, and so do
    /// ``RestorationDelegate/didDecodeRestorableState(_:context:)`` and
    /// ``RestorationDelegate/didFinishLaunching(_:context:)``. During a launch that
    /// restores, the object has taken back its saved state before any screen or the
    /// delegate sees it; an object the windows of a ``RestorationScenes`` share has
    /// taken it back in the process's first window launch, and later windows get it
    /// as the user left it. In ``RestorationDelegate/willFinishLaunching(_:)`` no object
    /// is available yet, and this returns nil.
    ///
    /// - Parameters:
    ///   - type: The object's type.
    ///   - identifier: The identifier it was registered under.
    /// - Returns: The object, or nil when none of that type is registered there.
    public func object<O: RestorableObject>(_ type: O.Type, identifier: String) -> O? {
        objects[identifier] as? O
    }

    /// Extends the restoration with asynchronous work that must complete before
    /// restoration counts as finished.
    ///
    /// The work starts once the launch has handed the restored tree to the app
    /// (after did-finish-launching) and runs concurrently with the other extensions,
    /// while the app shows the restored screens. A thrown error is reported in the
    /// launch report; work still running at the coordinator's timeout is cancelled
    /// and reported as timed out, and work still running when the task awaiting the
    /// launch is cancelled is reported as cancelled. Extensions added after the
    /// launch reached that phase are not run, and are reported.
    ///
    /// When every extension has ended, the screen that added this one gets its
    /// outcome, and the value it returned, in
    /// ``RestorableScreen/restorationDidFinish(_:)``, on the main actor, in the
    /// app's own tree:
    ///
    /// ```swift
    /// context.extendRestoration("load thread") { try await mail.thread(id) }
    /// // later, in restorationDidFinish(_ results:):
    /// results.value(of: "load thread", as: MailThread.self)
    /// ```
    ///
    /// - Parameters:
    ///   - name: A name for the launch report and logs, and to find the value by.
    ///   - operation: The work; what it returns reaches the screen.
    public func extendRestoration<Value: Sendable>(
        _ name: String, operation: @escaping @Sendable () async throws -> Value
    ) {
        extensions.add(
            RestorationExtensions.Entry(name: name, path: identifierPath) { try await operation() })
    }

    /// Reports something the restoration could not bring back as it was saved,
    /// without failing it: a selected row whose model is gone, a draft that no
    /// longer applies.
    ///
    /// The message is recorded with this context's ``identifierPath``, for the
    /// whole launch: every context of one launch shares its diagnostics, so the
    /// delegate reads in ``RestorationDelegate/didFinishLaunching(_:context:)``
    /// (through ``diagnostics``) what the screens reported while decoding.
    ///
    /// ```swift
    /// mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
    ///     self.state = state
    ///     if !catalog.contains(state.productID) {
    ///         context.report("product \(state.productID) is no longer sold; showing the catalogue")
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter message: One line that says what was not restored, and what
    ///   the screen did instead.
    public func report(_ message: String) {
        extensions.diagnostics.append(RestorationDiagnostic(path: identifierPath, message: message))
    }

    /// Everything reported with ``report(_:)`` during this launch so far, by every
    /// screen and by the delegate, in the order it was reported.
    ///
    /// ```swift
    /// func didFinishLaunching(_ report: LaunchReport, context: RestorationContext) async {
    ///     for diagnostic in context.diagnostics { logger.notice("\(diagnostic)") }
    /// }
    /// ```
    public var diagnostics: [RestorationDiagnostic] { extensions.diagnostics.entries }
}

/// What every context of one launch shares: the extensions registered during
/// the launch, and the diagnostics reported during it.
final class RestorationExtensions: Sendable {
    struct Entry: Sendable {
        var name: String
        var path: IdentifierPath?
        var operation: @Sendable () async throws -> any Sendable
    }

    private struct State {
        var entries: [Entry] = []
        var closed = false
        var late: [String] = []
    }

    private let state = Mutex(State())

    /// The diagnostics reported through ``RestorationContext/report(_:)``.
    let diagnostics = DiagnosticLog()

    func add(_ entry: Entry) {
        state.withLock { state in
            if state.closed { state.late.append(entry.name) } else { state.entries.append(entry) }
        }
    }

    /// Takes the registered extensions; later ones are only recorded as late.
    func close() -> [Entry] {
        state.withLock { state in
            state.closed = true
            return state.entries
        }
    }

    /// The names of extensions registered after ``close()``.
    var late: [String] { state.withLock { $0.late } }
}
