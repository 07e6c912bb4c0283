/// The app's screens and containers, declared once with a result builder: what
/// can be restored, where, and what a fresh launch shows.
///
/// This takes the place of a storyboard's restoration identifiers. The
/// declaration is both the schema of the archive (only the screen types it names
/// are ever instantiated while restoring) and the initial hierarchy.
///
/// ```swift
/// let screens = ScreenDeclaration {
///     Tabs("tabs") {
///         Stack("browse", root: SearchScreen()) {
///             ProductScreen.self                 // may be pushed, any number of times
///         }
///         Screen(SettingsScreen(), id: "settings")
///         if flags.drafts { Screen(DraftScreen(), id: "draft") }
///         Screen(ScratchScreen())                // no identifier: never saved
///     }
/// }
/// for diagnostic in screens.diagnostics { print(diagnostic) }
/// ```
public struct ScreenDeclaration: Sendable {
    /// The top-level elements; a valid declaration has exactly one.
    public let elements: [DeclarationNode]

    /// Every finding of validation, errors first.
    public let diagnostics: [DeclarationDiagnostic]

    /// Every screen type the declaration names, by type key.
    let screenTypes: [ScreenTypeKey: any RestorableScreen.Type]

    /// Creates a declaration and validates it.
    ///
    /// - Parameter content: The elements; exactly one at the top.
    public init(@DeclarationBuilder _ content: () -> [DeclarationNode]) {
        let elements = content()
        let validation = DeclarationValidation(elements: elements)
        self.elements = elements
        self.diagnostics = validation.diagnostics
        self.screenTypes = validation.screenTypes
    }

    /// The root element, when there is exactly one.
    public var root: DeclarationNode? { elements.count == 1 ? elements[0] : nil }

    /// The error-severity findings.
    public var errors: [DeclarationDiagnostic] { diagnostics.filter { $0.severity == .error } }

    /// The warning-severity findings.
    public var warnings: [DeclarationDiagnostic] { diagnostics.filter { $0.severity == .warning } }

    /// Throws when the declaration has errors.
    ///
    /// - Throws: ``DeclarationError`` with every error-severity finding.
    public func validate() throws(DeclarationError) {
        let errors = errors
        if !errors.isEmpty { throw DeclarationError(diagnostics: errors) }
    }

    /// The hierarchy a fresh launch starts with: every tab, every stack's root,
    /// nothing pushed or presented, the declared tab selected.
    ///
    /// - Returns: The initial tree.
    /// - Throws: ``DeclarationError`` when the declaration has errors.
    public func makeInitialTree() throws(DeclarationError) -> ScreenTree {
        try validate()
        guard let root, let node = root.makeInitialNode() else {
            throw DeclarationError(diagnostics: errors)
        }
        return ScreenTree(root: node)
    }
}

extension DeclarationNode {
    /// The node as it is on a fresh launch, or nil when a screen in it has no
    /// initial instance.
    func makeInitialNode() -> ScreenNode? {
        switch kind {
        case .screen, .container:
            guard let initialScreen else { return nil }
            return ScreenNode(declaration: self, identifier: identifier, screen: initialScreen)
        case .stack:
            guard let root = children.first?.makeInitialNode() else { return nil }
            return ScreenNode(declaration: self, identifier: identifier, screen: nil, children: [root])
        case .tabs:
            var tabs: [ScreenNode] = []
            for child in children {
                guard let tab = child.makeInitialNode() else { return nil }
                tabs.append(tab)
            }
            let selected = initialSelection.flatMap { id in children.firstIndex { $0.identifier == id } } ?? 0
            return ScreenNode(
                declaration: self, identifier: identifier, screen: nil, children: tabs,
                selectedIndex: tabs.isEmpty ? nil : selected)
        }
    }

    /// Tells whether the node declares exactly this screen type.
    func declares(_ type: any RestorableScreen.Type) -> Bool {
        screenType.map { ObjectIdentifier($0) == ObjectIdentifier(type) } ?? false
    }
}
