/// Something that can appear in a screen declaration.
///
/// ``Screen``, ``Stack``, ``Tabs``, ``Container`` and ``DeclarationNode`` conform.
public protocol DeclarationElement: Sendable {
    /// The element as a declaration node.
    var declarationNode: DeclarationNode { get }
}

extension DeclarationElement {
    /// Declares the elements that may be presented modally over this one.
    ///
    /// A presented element's path is its presenter's path followed by its own
    /// identifier. Presented elements may themselves be stacks, tabs or containers.
    ///
    /// ```swift
    /// Screen(InboxScreen(), id: "inbox")
    ///     .presents {
    ///         Screen(ComposeScreen.self, id: "compose")
    ///     }
    /// ```
    ///
    /// - Parameter content: The presentable elements.
    /// - Returns: The element with its presentable elements.
    public func presents(@DeclarationBuilder _ content: () -> [DeclarationNode]) -> DeclarationNode {
        var node = declarationNode
        node.presentable += content()
        return node
    }
}
