/// The stable name under which a screen type's state is written into an archive.
///
/// An archive never stores Swift type names: it stores type keys, and restoring
/// instantiates only the types whose keys the app's declaration lists. A screen's
/// key defaults to its type's unqualified name (`String(describing: Self.self)`),
/// which is fine until the type is renamed. Before shipping, give each screen an
/// explicit key so that renaming the Swift type keeps old archives restorable:
///
/// ```swift
/// struct ProductDetailScreen: RestorableScreen {
///     static let typeKey: ScreenTypeKey = "product"   // was ProductScreen in 1.0
///     var state: State
/// }
/// ```
///
/// Two screen types with one key in a declaration are a declaration error.
public struct ScreenTypeKey: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    /// The key's text.
    public var rawValue: String

    /// Creates a key from its text.
    ///
    /// - Parameter rawValue: The key's text.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a key from its text.
    ///
    /// - Parameter rawValue: The key's text.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a key from a string literal.
    ///
    /// - Parameter value: The key's text.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// Creates a key from the unqualified name of a type.
    ///
    /// - Parameter type: The type whose name becomes the key.
    public init(typeName type: Any.Type) {
        self.rawValue = String(describing: type)
    }

    /// The key's text.
    public var description: String { rawValue }

    /// Orders keys by their text.
    public static func < (lhs: ScreenTypeKey, rhs: ScreenTypeKey) -> Bool { lhs.rawValue < rhs.rawValue }
}
