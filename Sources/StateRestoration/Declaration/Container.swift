/// Declares a custom container and the kinds of children the app may put in it.
///
/// The container starts empty on a fresh launch; the app adds children with
/// ``ScreenTree/addChild(_:id:to:)``. Each child needs an identifier unique among
/// its siblings; the declaration lists the allowed children by identifier, and a
/// child added at runtime names one of them.
///
/// ```swift
/// Container(SplitScreen(), id: "split") {
///     Screen(MailboxScreen.self, id: "mailbox")
///     Screen(MessageScreen.self, id: "message")
/// }
/// ```
public struct Container: DeclarationElement {
    /// The declared node.
    public let declarationNode: DeclarationNode

    /// Declares a custom container.
    ///
    /// - Parameters:
    ///   - container: The container screen on a fresh launch.
    ///   - id: Its restoration identifier; nil means never saved.
    ///   - fileID: The file that declares it, for diagnostics; leave the default.
    ///   - line: The line that declares it, for diagnostics; leave the default.
    ///   - children: The children the app may add.
    public init<C: RestorableContainer>(
        _ container: C, id: String?, fileID: String = #fileID, line: Int = #line,
        @DeclarationBuilder _ children: () -> [DeclarationNode]
    ) {
        declarationNode = DeclarationNode(
            identifier: id, kind: .container, screenType: C.self, initialScreen: container,
            children: children(), location: DeclarationLocation(fileID: fileID, line: line))
    }
}
