/// A value of the model the UI reads and writes: a get/set pair, what SwiftUI's
/// `Binding(get:set:)` and a UIKit control's action take.
///
/// A ``RestorationModel`` hands out projections of its tree: a stack's screens, the
/// selected tab, what is presented over a node, one screen's state, a container's
/// children. Reading one inside `withObservationTracking` (or a SwiftUI body)
/// observes only the nodes it shows. The setter accepts what a user can do from
/// the UI (go back to any screen, open a declared screen, pick a tab, dismiss) and
/// refuses anything else with a ``HierarchyError`` that names the node, leaving the
/// tree as it was.
///
/// ```swift
/// // SwiftUI: one line turns a projection into a binding
/// extension Projection { var binding: Binding<Value> { Binding(get: { wrappedValue }, set: { wrappedValue = $0 }) } }
///
/// NavigationStack(path: model.path(of: "browse").binding) { … }
/// ```
///
/// Setting ``wrappedValue`` reports a refusal to the model
/// (``RestorationModel/lastRefusal``), as a binding's setter cannot throw;
/// ``set(_:)`` throws it instead.
@MainActor
public struct Projection<Value> {
    private let read: @MainActor () -> Value
    private let write: @MainActor (Value) throws(HierarchyError) -> Void
    private let refuse: @MainActor (HierarchyError) -> Void

    /// Creates a projection from its getter, its setter, and where a refusal of
    /// ``wrappedValue``'s setter goes.
    ///
    /// - Parameters:
    ///   - get: Reads the value.
    ///   - set: Writes a value, or throws why it cannot.
    ///   - refuse: Receives what ``wrappedValue``'s setter could not write.
    public init(
        get: @escaping @MainActor () -> Value,
        set: @escaping @MainActor (Value) throws(HierarchyError) -> Void,
        refuse: @escaping @MainActor (HierarchyError) -> Void = { _ in }
    ) {
        self.read = get
        self.write = set
        self.refuse = refuse
    }

    /// The value; setting it applies what the setter accepts and reports a refusal
    /// to the model.
    public var wrappedValue: Value {
        get { read() }
        nonmutating set {
            do { try write(newValue) } catch { refuse(error) }
        }
    }

    /// Reads the value.
    ///
    /// - Returns: The current value.
    public func get() -> Value { read() }

    /// Writes a value, or throws why it cannot be written.
    ///
    /// - Parameter value: The new value.
    /// - Throws: ``HierarchyError`` naming the node, when the change is not one a
    ///   user can make from the UI; the tree is unchanged then.
    public func set(_ value: Value) throws(HierarchyError) { try write(value) }
}
