/// Builds the elements of a screen declaration.
///
/// Every element becomes one ``DeclarationNode``; the builder collects them into
/// an array, with `if`, `if`/`else`, `switch`, `for` and availability checks.
///
/// ```swift
/// ScreenDeclaration {
///     Tabs("tabs") {
///         Stack("browse", root: SearchScreen()) { ProductScreen.self }
///         if flags.drafts { Screen(DraftScreen(), id: "draft") }
///         for account in accounts { Screen(AccountScreen(account), id: account.id) }
///     }
/// }
/// ```
@resultBuilder
public enum DeclarationBuilder {
    /// A declaration element: `Screen(SettingsScreen(), id: "settings")`.
    ///
    /// - Parameter element: The element.
    /// - Returns: Its node.
    public static func buildExpression(_ element: some DeclarationElement) -> [DeclarationNode] {
        [element.declarationNode]
    }

    /// A bare screen type, pushable or presentable under its type key:
    /// `ProductScreen.self`.
    ///
    /// - Parameters:
    ///   - type: The screen type.
    ///   - fileID: The file that declares it, for diagnostics; leave the default.
    ///   - line: The line that declares it, for diagnostics; leave the default.
    /// - Returns: A screen node identified by the type's key.
    public static func buildExpression<S: RestorableScreen>(
        _ type: S.Type, fileID: String = #fileID, line: Int = #line
    ) -> [DeclarationNode] {
        [
            DeclarationNode(
                identifier: S.typeKey.rawValue, kind: .screen, screenType: S.self,
                location: DeclarationLocation(fileID: fileID, line: line))
        ]
    }

    /// Several elements from a function: `commonTabs()`.
    ///
    /// - Parameter nodes: The nodes.
    /// - Returns: The same nodes.
    public static func buildExpression(_ nodes: [DeclarationNode]) -> [DeclarationNode] {
        nodes
    }

    /// An empty block: `Tabs("tabs") {}`.
    ///
    /// - Returns: No nodes.
    public static func buildBlock() -> [DeclarationNode] { [] }

    /// The first element of a block.
    ///
    /// - Parameter first: The first element's nodes.
    /// - Returns: The same nodes.
    public static func buildPartialBlock(first: [DeclarationNode]) -> [DeclarationNode] { first }

    /// The next element of a block, after the ones before it.
    ///
    /// - Parameters:
    ///   - accumulated: The nodes so far.
    ///   - next: The next element's nodes.
    /// - Returns: Both, in order.
    public static func buildPartialBlock(accumulated: [DeclarationNode], next: [DeclarationNode]) -> [DeclarationNode] {
        accumulated + next
    }

    /// `if flag { … }` without `else`.
    ///
    /// - Parameter component: The nodes when the condition held.
    /// - Returns: Those nodes, or none.
    public static func buildOptional(_ component: [DeclarationNode]?) -> [DeclarationNode] {
        component ?? []
    }

    /// The first branch of `if`/`else` or `switch`.
    ///
    /// - Parameter component: The branch's nodes.
    /// - Returns: The same nodes.
    public static func buildEither(first component: [DeclarationNode]) -> [DeclarationNode] { component }

    /// The second branch of `if`/`else` or `switch`.
    ///
    /// - Parameter component: The branch's nodes.
    /// - Returns: The same nodes.
    public static func buildEither(second component: [DeclarationNode]) -> [DeclarationNode] { component }

    /// `for item in items { … }`.
    ///
    /// - Parameter components: Each iteration's nodes.
    /// - Returns: All of them, in order.
    public static func buildArray(_ components: [[DeclarationNode]]) -> [DeclarationNode] {
        components.flatMap { $0 }
    }

    /// `if #available(iOS 18, *) { … }`.
    ///
    /// - Parameter component: The nodes in the available branch.
    /// - Returns: The same nodes.
    public static func buildLimitedAvailability(_ component: [DeclarationNode]) -> [DeclarationNode] {
        component
    }
}
