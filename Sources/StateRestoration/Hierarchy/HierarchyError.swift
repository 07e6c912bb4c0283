/// An operation on the live hierarchy that could not be done.
///
/// ```swift
/// do { try tree.push(ProductScreen(state: .init(productID: "p-1")), onto: "settings") }
/// catch { print(error) }  // cannot push onto tabs/settings: it is a screen, not a stack
/// ```
public struct HierarchyError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What kind of failure this is.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        public var rawValue: String
        /// Creates a code.
        ///
        /// - Parameter rawValue: The code's name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// No node has the path or identifier.
        public static let notFound = Code(rawValue: "not-found")
        /// Several nodes have the identifier; use a full path.
        public static let ambiguous = Code(rawValue: "ambiguous")
        /// The node is of another kind than the operation needs.
        public static let wrongKind = Code(rawValue: "wrong-kind")
        /// The declaration does not allow the screen there.
        public static let notDeclared = Code(rawValue: "not-declared")
        /// A sibling already has the identifier.
        public static let duplicateIdentifier = Code(rawValue: "duplicate-identifier")
        /// A stack's root cannot be popped.
        public static let cannotPopRoot = Code(rawValue: "cannot-pop-root")
        /// Nothing is presented to dismiss.
        public static let nothingPresented = Code(rawValue: "nothing-presented")
        /// Something is already presented over the node.
        public static let alreadyPresenting = Code(rawValue: "already-presenting")
        /// The screen at the path has another type.
        public static let typeMismatch = Code(rawValue: "type-mismatch")
        /// An identifier is empty or contains `/` or `#`, which paths and positions use.
        public static let invalidIdentifier = Code(rawValue: "invalid-identifier")
        /// The screens given for a stack are not its bottom screens in order: the UI
        /// can only remove screens from the top.
        public static let notAPrefix = Code(rawValue: "not-a-prefix")
        /// The UI asked for a change of a container's children no user action makes:
        /// children reordered, or a child that is not there and is no screen to add.
        public static let unsupportedChange = Code(rawValue: "unsupported-change")
    }

    /// What kind of failure this is.
    public var code: Code
    /// The node the operation was aimed at, as given.
    public var reference: String
    /// One line that says what failed and where.
    public var message: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - code: What kind of failure this is.
    ///   - reference: The node the operation was aimed at.
    ///   - message: One line that says what failed and where.
    public init(_ code: Code, reference: String, message: String) {
        self.code = code
        self.reference = reference
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
