/// Declares tabs: each child is one tab, and the selected tab is restored.
///
/// ```swift
/// Tabs("tabs", selected: "browse") {
///     Stack("browse", root: SearchScreen()) { ProductScreen.self }
///     Screen(SettingsScreen(), id: "settings")
///     if flags.drafts { Screen(DraftScreen(), id: "draft") }
/// }
/// ```
public struct Tabs: DeclarationElement {
    /// The declared node.
    public let declarationNode: DeclarationNode

    /// Declares tabs.
    ///
    /// - Parameters:
    ///   - id: The restoration identifier; nil means never saved.
    ///   - selected: The identifier of the tab selected on a fresh launch; nil
    ///     selects the first.
    ///   - fileID: The file that declares them, for diagnostics; leave the default.
    ///   - line: The line that declares them, for diagnostics; leave the default.
    ///   - tabs: The tabs, in order.
    public init(
        _ id: String?, selected: String? = nil, fileID: String = #fileID, line: Int = #line,
        @DeclarationBuilder _ tabs: () -> [DeclarationNode]
    ) {
        declarationNode = DeclarationNode(
            identifier: id, kind: .tabs, children: tabs(), initialSelection: selected,
            location: DeclarationLocation(fileID: fileID, line: line))
    }
}
