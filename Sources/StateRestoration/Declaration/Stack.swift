/// Declares a navigation stack: a root screen, and the screens that may be pushed
/// onto it, any number of times.
///
/// Children carry their position in their path component, as
/// `UINavigationController` appends it: `browse/search#0`, `browse/product#1`.
/// A bare screen type in the content is pushable under its type key as identifier.
///
/// ```swift
/// Stack("browse", root: SearchScreen()) {
///     ProductScreen.self
///     Screen(ReviewScreen.self, id: "review")
/// }
/// ```
public struct Stack: DeclarationElement {
    /// The declared node.
    public let declarationNode: DeclarationNode

    /// Declares a stack whose root is identified by its type key.
    ///
    /// - Parameters:
    ///   - id: The stack's restoration identifier; nil means never saved.
    ///   - root: The root screen on a fresh launch.
    ///   - fileID: The file that declares it, for diagnostics; leave the default.
    ///   - line: The line that declares it, for diagnostics; leave the default.
    ///   - pushable: The screens that may be pushed.
    public init<Root: RestorableScreen>(
        _ id: String?, root: Root, fileID: String = #fileID, line: Int = #line,
        @DeclarationBuilder pushable: () -> [DeclarationNode] = { [] }
    ) {
        let location = DeclarationLocation(fileID: fileID, line: line)
        let rootNode = DeclarationNode(
            identifier: Root.typeKey.rawValue, kind: .screen, screenType: Root.self, initialScreen: root,
            location: location)
        self.init(id, rootNode: rootNode, location: location, pushable: pushable())
    }

    /// Declares a stack whose root is any declaration element.
    ///
    /// - Parameters:
    ///   - id: The stack's restoration identifier; nil means never saved.
    ///   - root: The root element, such as `Screen(SearchScreen(), id: "search")`.
    ///   - fileID: The file that declares it, for diagnostics; leave the default.
    ///   - line: The line that declares it, for diagnostics; leave the default.
    ///   - pushable: The screens that may be pushed.
    public init(
        _ id: String?, root: some DeclarationElement, fileID: String = #fileID, line: Int = #line,
        @DeclarationBuilder pushable: () -> [DeclarationNode] = { [] }
    ) {
        self.init(
            id, rootNode: root.declarationNode, location: DeclarationLocation(fileID: fileID, line: line),
            pushable: pushable())
    }

    private init(_ id: String?, rootNode: DeclarationNode, location: DeclarationLocation, pushable: [DeclarationNode]) {
        declarationNode = DeclarationNode(
            identifier: id, kind: .stack, children: [rootNode], pushable: pushable, location: location)
    }
}
