/// A screen whose state survives the end of the app's process.
///
/// A screen's state is one `Codable` struct: no `NSCoder`, no keys, and a type
/// that cannot be encoded is a compile-time error rather than a crash while
/// saving. The hooks mirror `UIViewController`'s: ``willEncodeRestorableState()``
/// is `encodeRestorableState(with:)` (capture what the live UI holds, such as the
/// text being edited), ``decodeRestorableState(_:context:)`` is
/// `decodeRestorableState(with:)`, and ``restorationDidFinish(_:)`` is
/// `applicationFinishedRestoringState()`.
///
/// ```swift
/// struct SearchScreen: RestorableScreen {
///     static let typeKey: ScreenTypeKey = "search"
///     struct State: Codable, Sendable, Equatable {
///         var query = ""
///         var scrollOffset = 0.0
///     }
///     var state = State()
/// }
/// ```
///
/// A struct whose only stored property is `state` gets ``init(state:)`` from its
/// memberwise initialiser; one with other stored properties writes it. A screen
/// that needs more than its state to be made (a service, a database handle) gives
/// a ``restorationFactory``, or lets the coordinator's delegate make it.
///
/// Screens are values: the hierarchy (``ScreenTree``) holds them, and the UI layer
/// mirrors it. Equality of two screens is equality of their type and state.
public protocol RestorableScreen: Sendable {
    /// The screen's saved state: a Codable, Sendable, Equatable struct.
    ///
    /// Its `==` must compare every field it encodes (the synthesized one does): a
    /// save reuses the bytes the previous save encoded at the same path when the
    /// screen has the same ``typeKey`` and ``stateVersion`` and its state is `==`
    /// to the one encoded then, so a custom `==` that ignores a field would leave
    /// a change of that field alone unsaved.
    ///
    /// It must be a value all the way down: no class instance whose properties
    /// change in place. A save keeps the state it encoded to compare the next
    /// state with; a reference inside it would change with the screen's, and the
    /// two would always compare equal.
    associatedtype State: Codable & Sendable & Equatable

    /// The stable key written into the archive for this type; see ``ScreenTypeKey``.
    ///
    /// The default is the type's unqualified name. Set it explicitly before
    /// shipping so a rename of the Swift type does not orphan saved states.
    static var typeKey: ScreenTypeKey { get }

    /// The version of ``State``'s shape written beside each saved state.
    ///
    /// The default is 1. Raise it when `State` changes in a way old archives
    /// cannot decode into, and migrate the old shape with ``stateMigrations``.
    static var stateVersion: Int { get }

    /// Migrations from older State versions to the current one; none by default.
    static var stateMigrations: [StateMigration<State>] { get }

    /// How old a saved state may be and still be restored; nil (the default)
    /// means no limit. A route found last week should not come back.
    static var maximumStateAge: Duration? { get }

    /// The type's own factory, UIKit's `restorationClass`; nil by default.
    ///
    /// When it is nil the coordinator asks its delegate, whose default makes the
    /// screen with ``init(state:)``. When it is set and returns nil, the screen and
    /// everything under it are not restored.
    static var restorationFactory: RestorationFactory<Self>? { get }

    /// The state the screen saves and restores.
    var state: State { get set }

    /// Makes the screen from its state; used for restoration unless a factory or
    /// the delegate makes it instead.
    ///
    /// - Parameter state: The restored (or initial) state.
    init(state: State)

    /// Called on the main actor, on the screen in the app's own tree, just before
    /// the tree is saved: UIKit's `encodeRestorableState(with:)`.
    ///
    /// Copy into ``state`` what only the live UI knows, such as the text being
    /// edited or the field that has focus. The change stays in the app's tree (a
    /// save that captures takes the tree from a ``RestorationHost``, see
    /// ``RestorationCoordinator/save(_:)-(RestorationHost)``), so the tree the app
    /// holds and the tree the next launch restores are equal. The default does
    /// nothing.
    @MainActor mutating func willEncodeRestorableState()

    /// Receives the decoded state after the screen was made, in tree order from the
    /// root down, before the app's did-decode.
    ///
    /// Values set while making the screen are overwritten here, as UIKit decodes
    /// after `viewDidLoad`. The default assigns `state`. Work that must finish
    /// before restoration counts as complete (an automatic log-in, a fetch) goes
    /// into `context.extendRestoration(_:operation:)`.
    ///
    /// - Parameters:
    ///   - state: The decoded state.
    ///   - context: The path of the screen, the archive's info, and restoration extensions.
    mutating func decodeRestorableState(_ state: State, context: RestorationContext)

    /// Called on the main actor when the restoration finished, on each restored
    /// screen still in the app's tree, in tree order: UIKit's
    /// `applicationFinishedRestoringState()`.
    ///
    /// It comes once every restoration extension completed, failed, timed out or
    /// was cancelled; `results` says how this screen's own extensions ended and
    /// holds what the completed ones returned. A screen the user closed before then
    /// does not get it. The default does nothing.
    ///
    /// ```swift
    /// mutating func restorationDidFinish(_ results: RestorationResults) {
    ///     if let thread = results.value(of: "load thread", as: MailThread.self) {
    ///         state.subject = thread.subject
    ///     }
    /// }
    /// ```
    ///
    /// - Parameter results: How this screen's extensions ended, and their values.
    @MainActor mutating func restorationDidFinish(_ results: RestorationResults)
}

extension RestorableScreen {
    /// The type's unqualified name.
    public static var typeKey: ScreenTypeKey { ScreenTypeKey(typeName: Self.self) }

    /// Version 1.
    public static var stateVersion: Int { 1 }

    /// No migrations.
    public static var stateMigrations: [StateMigration<State>] { [] }

    /// No limit.
    public static var maximumStateAge: Duration? { nil }

    /// No factory: the delegate makes the screen.
    public static var restorationFactory: RestorationFactory<Self>? { nil }

    /// Does nothing.
    @MainActor public mutating func willEncodeRestorableState() {}

    /// Assigns the decoded state.
    public mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
        self.state = state
    }

    /// Does nothing.
    @MainActor public mutating func restorationDidFinish(_ results: RestorationResults) {}

    /// The screen's type key, read from an instance.
    public var typeKey: ScreenTypeKey { Self.typeKey }

    /// Tells whether `other` is a screen of the same type with an equal state.
    ///
    /// - Parameter other: The screen to compare with.
    /// - Returns: True when both have the same type and equal states.
    public func isEqual(to other: any RestorableScreen) -> Bool {
        guard let other = other as? Self else { return false }
        return other.state == state
    }
}
