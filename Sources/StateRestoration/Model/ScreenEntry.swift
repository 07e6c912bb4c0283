/// One node as a UI shows it: a screen on a navigation stack, the screen presented
/// over another, or a container's child; what the projections of a
/// ``RestorationModel`` hand to `NavigationStack(path:)`, `.sheet(item:)` and a
/// `UINavigationController` mirror.
///
/// An entry is its node's identity (``id``): two entries are equal when they name
/// the same node, whatever its state. Editing a screen's state keeps its entry,
/// so the UI does not push it again; a screen pushed at a position another screen
/// held before is a new node with a new entry.
///
/// An entry made from a screen (``init(_:as:)``) names a node that is not in the
/// tree yet: the projection's setter adds it, with that identity, when the UI
/// appends it (SwiftUI's `NavigationLink(value:)`):
///
/// ```swift
/// NavigationLink("Details", value: ScreenEntry(ProductScreen(state: .init(productID: "p-42"))))
/// ```
public struct ScreenEntry: Hashable, Identifiable, Sendable, CustomStringConvertible {
    /// The node's identity.
    public let id: ScreenNode.ID
    /// The kind of node; nil for an entry made with ``init(declared:)``, whose
    /// declared element's kind is known once it is presented.
    public let kind: DeclarationNode.Kind?
    /// The type key of the node's screen; nil for stacks and tabs.
    public let typeKey: ScreenTypeKey?
    /// The node's declared identifier: `product` for `browse/product#1`; nil for a
    /// node that is never saved.
    public let identifier: String?
    /// What the setter adds for an entry that is not in the tree yet.
    let addition: Addition?

    /// How an entry that is not in the tree yet is added.
    enum Addition: Sendable {
        /// A screen, with the declared identifier to add it as (nil: the first
        /// declaration of its type).
        case screen(any RestorableScreen, declaredAs: String?)
        /// A declared stack, tabs or container presented with its initial screens.
        case declared(String)
    }

    /// An entry for a screen to add: pushed onto a stack, presented, or added to a
    /// container when a projection's setter receives it.
    ///
    /// - Parameters:
    ///   - screen: The screen to add.
    ///   - identifier: The declared identifier to add it as, when its type is
    ///     declared under several there; nil takes the first declaration of the type.
    public init<S: RestorableScreen>(_ screen: S, as identifier: String? = nil) {
        self.id = .make()
        self.kind = .screen
        self.typeKey = S.typeKey
        self.identifier = identifier
        self.addition = .screen(screen, declaredAs: identifier)
    }

    /// An entry for a declared stack, tabs or container to present with its initial
    /// screens (``ScreenTree/presentDeclared(_:over:)``), such as a compose flow:
    ///
    /// ```swift
    /// model.presented(over: "inbox").wrappedValue = ScreenEntry(declared: "compose")
    /// ```
    ///
    /// - Parameter identifier: The identifier of the element in the presenter's
    ///   `.presents { … }`.
    public init(declared identifier: String) {
        self.id = .make()
        self.kind = nil
        self.typeKey = nil
        self.identifier = identifier
        self.addition = .declared(identifier)
    }

    /// The entry of a node in the tree.
    ///
    /// - Parameter node: The node.
    public init(_ node: ScreenNode) {
        self.id = node.id
        self.kind = node.kind
        self.typeKey = node.screen?.typeKey
        self.identifier = node.identifier
        self.addition = nil
    }

    /// Whether the entry names the same node.
    public static func == (lhs: ScreenEntry, rhs: ScreenEntry) -> Bool { lhs.id == rhs.id }

    /// Hashes the node's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(id) }

    /// The identity, identifier and type key: `node-12 product (product)`.
    public var description: String {
        let name = identifier ?? "<\(typeKey?.rawValue ?? kind?.rawValue ?? "node")>"
        return typeKey.map { "\(id) \(name) (\($0))" } ?? "\(id) \(name) [\(kind?.rawValue ?? "declared")]"
    }

    /// The reference to the entry's node, for the tree's operations.
    public var reference: NodeReference { .node(id) }
}
