/// Names a node of the live hierarchy: by full identifier path (`"tabs/browse"`)
/// or by an identifier that only one node has (`"browse"`).
///
/// A node without an identifier (never saved) is named by its display path,
/// where it and its unidentified ancestors appear by type key or kind in angle
/// brackets: `"tabs/<scratch>"`. Any node can also be named by its identity
/// (``node(_:)``), which stays while it is in the tree: what a UI layer holds.
///
/// ```swift
/// try tree.push(ProductScreen(state: .init(productID: "p-42")), onto: "browse")
/// try tree.dismiss(from: "tabs/browse/product#1")
/// try tree.update(ProductScreen.self, at: .node(entry.id)) { $0.state.quantity += 1 }
/// ```
public struct NodeReference: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    enum Form: Hashable, Sendable {
        case path(IdentifierPath)
        case identifier(String)
        case node(ScreenNode.ID)
    }

    let form: Form

    /// A text with `/` is a full path; otherwise an identifier that only one node
    /// has (a declared identifier, or a positional one such as `product#1`).
    ///
    /// - Parameter value: The path or identifier.
    public init(_ value: String) {
        form = value.contains("/") ? .path(IdentifierPath(stringLiteral: value)) : .identifier(value)
    }

    /// Names a node by its full path.
    ///
    /// - Parameter path: The node's path from the root.
    public init(_ path: IdentifierPath) {
        form = .path(path)
    }

    /// Names a node by its identity: the node itself, wherever it is in the tree.
    ///
    /// - Parameter id: The node's identity.
    public init(_ id: ScreenNode.ID) {
        form = .node(id)
    }

    /// Names a node by its identity, as ``init(_:)-(ScreenNode.ID)`` does.
    ///
    /// - Parameter id: The node's identity.
    /// - Returns: The reference.
    public static func node(_ id: ScreenNode.ID) -> NodeReference {
        NodeReference(id)
    }

    /// Names a node by path or identifier, as ``init(_:)-(String)`` does.
    ///
    /// - Parameter value: The path or identifier.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// Whether the reference names a node by identity, not by path or identifier.
    var namesNode: Bool {
        if case .node = form { return true }
        return false
    }

    /// The reference as written.
    public var description: String {
        switch form {
        case .path(let path): path.description
        case .identifier(let identifier): identifier
        case .node(let id): id.description
        }
    }
}
