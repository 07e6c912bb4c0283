/// One finding of a declaration's validation, with the full path of the element
/// it is about.
///
/// ```text
/// error: tabs/browse has two children named webview (App/Screens.swift:14)
/// warning: tabs/<ScratchScreen>/note will never be restored: tabs/<ScratchScreen> has no restoration identifier
/// ```
public struct DeclarationDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a finding is.
    public enum Severity: String, Sendable, Hashable {
        /// The declaration cannot be used: nothing is saved or restored.
        case error
        /// The declaration works, but something in it is probably not what was meant.
        case warning
    }

    /// What kind of finding this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public var rawValue: String
        /// Creates a code.
        ///
        /// - Parameter rawValue: The code's name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// Two children of one element have the same identifier.
        public static let duplicateIdentifier = Code(rawValue: "duplicate-identifier")
        /// An element has an identifier but an ancestor has none, so it is never saved.
        public static let unreachableIdentifier = Code(rawValue: "unreachable-identifier")
        /// An identifier is empty or contains `/` or `#`.
        public static let invalidIdentifier = Code(rawValue: "invalid-identifier")
        /// Two different screen types use one type key.
        public static let duplicateTypeKey = Code(rawValue: "duplicate-type-key")
        /// A screen that is part of the initial hierarchy was declared by type only.
        public static let missingInitialScreen = Code(rawValue: "missing-initial-screen")
        /// The declaration has no root, or more than one.
        public static let rootCount = Code(rawValue: "root-count")
        /// Tabs without any tab.
        public static let emptyTabs = Code(rawValue: "empty-tabs")
        /// The initially selected tab is not one of the tabs.
        public static let unknownSelection = Code(rawValue: "unknown-selection")
        /// A stack or tabs declared as pushable onto a stack.
        public static let invalidPushable = Code(rawValue: "invalid-pushable")
        /// A stack or tabs declared as a custom container's child, which ``ScreenTree/addChild(_:id:to:)``
        /// cannot add.
        public static let invalidChild = Code(rawValue: "invalid-child")
        /// Two of a screen type's ``RestorableScreen/stateMigrations`` read the same
        /// State version.
        public static let duplicateMigration = Code(rawValue: "duplicate-migration")
        /// A ``StateMigration`` reads the screen type's current
        /// ``RestorableScreen/stateVersion`` or a newer one.
        public static let invalidMigrationVersion = Code(rawValue: "invalid-migration-version")
        /// A screen type's ``RestorableScreen/stateMigrations`` do not chain to the
        /// current State version from some older one: no migration from a version the
        /// chain reaches, or a step that reads another type than the step before it
        /// makes. States saved at those versions are skipped at launch.
        public static let brokenMigrationChain = Code(rawValue: "broken-migration-chain")
    }

    /// How serious the finding is.
    public var severity: Severity
    /// What kind of finding this is.
    public var code: Code
    /// The path of the element, naming elements without an identifier by their
    /// type or kind in angle brackets.
    public var path: IdentifierPath
    /// One line that says what is wrong and where.
    public var message: String
    /// Where the element was declared.
    public var location: DeclarationLocation?

    /// Creates a diagnostic.
    ///
    /// - Parameters:
    ///   - severity: How serious it is.
    ///   - code: What kind of finding it is.
    ///   - path: The element's path.
    ///   - message: One line that says what is wrong and where.
    ///   - location: Where the element was declared.
    public init(
        _ severity: Severity, _ code: Code, path: IdentifierPath, message: String, location: DeclarationLocation?
    ) {
        self.severity = severity
        self.code = code
        self.path = path
        self.message = message
        self.location = location
    }

    /// `error: <message> (<file>:<line>)`.
    public var description: String {
        "\(severity.rawValue): \(message)" + (location.map { " (\($0))" } ?? "")
    }
}
