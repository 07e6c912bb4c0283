/// An object that is not a screen but is saved and restored once, and shared by
/// several screens: UIKit's `UIStateRestoring` with
/// `registerObjectForStateRestoration(_:restorationIdentifier:)`.
///
/// Passing an object from one screen to the next (a cart, a document, a login
/// session) works until restoration re-creates each screen on its own, when one
/// instance turns into two. Register the object with the coordinator
/// before launching; it is saved with every archive and restored before any
/// screen, and screens look it up by identifier while they decode, so every
/// screen points at the one instance again.
///
/// In an app with several windows, register an object the windows share with the
/// ``RestorationScenes`` instead (`scenes.register(cart, identifier: "cart")`): it
/// is saved in one archive of its own and restored once per process, by the first
/// window launch, so a window that connects later never takes it back to an older
/// state.
///
/// ```swift
/// import Synchronization
///
/// final class Cart: RestorableObject {
///     struct State: Codable, Sendable { var items: [String] }
///     private let items = Mutex<[String]>([])
///     func encodeRestorableState() async -> State { State(items: items.withLock { $0 }) }
///     func decodeRestorableState(_ state: State) async { items.withLock { $0 = state.items } }
/// }
///
/// await coordinator.register(cart, identifier: "cart")
///
/// // In a screen:
/// mutating func decodeRestorableState(_ state: State, context: RestorationContext) {
///     self.state = state
///     cart = context.object(Cart.self, identifier: state.cartID)
/// }
/// ```
///
/// The object's methods are async, so a `@MainActor` class can conform; the
/// coordinator calls them from its own actor. Its explicit type key is then
/// `nonisolated`, since the coordinator reads it off the main actor:
///
/// ```swift
/// @MainActor final class Account: RestorableObject {
///     nonisolated static let typeKey: ScreenTypeKey = "account"
///     struct State: Codable, Sendable { var signature: String }
///     var signature = ""
///     func encodeRestorableState() async -> State { State(signature: signature) }
///     func decodeRestorableState(_ state: State) async { signature = state.signature }
/// }
/// ```
public protocol RestorableObject: AnyObject, Sendable {
    /// The object's saved state.
    associatedtype State: Codable & Sendable

    /// The stable key written into the archive for this type; the type's name by default.
    static var typeKey: ScreenTypeKey { get }

    /// The state to save.
    ///
    /// - Returns: The object's current state.
    func encodeRestorableState() async -> State

    /// Takes back a saved state, before any screen is restored.
    ///
    /// - Parameter state: The decoded state.
    func decodeRestorableState(_ state: State) async
}

extension RestorableObject {
    /// The type's unqualified name.
    public static var typeKey: ScreenTypeKey { ScreenTypeKey(typeName: Self.self) }
}
