/// The restoration identifiers from the root of a hierarchy down to one screen.
///
/// UIKit hands a view controller's factory the array of restoration identifiers
/// from the window's root to that view controller; `IdentifierPath` is that array.
/// Children of a navigation stack carry their position, as `UINavigationController`
/// appends it to its children's identifiers: the second screen on the stack
/// `browse` declared as `product` is `tabs/browse/product#1`.
///
/// ```swift
/// let path: IdentifierPath = "tabs/browse/product#1"
/// path.components      // ["tabs", "browse", "product#1"]
/// path.parent          // "tabs/browse"
/// ```
public struct IdentifierPath: Hashable, Sendable, Codable, CustomStringConvertible,
    ExpressibleByStringLiteral, ExpressibleByArrayLiteral
{
    /// The identifiers, from the root first to the screen last.
    public var components: [String]

    /// Creates a path from its components, root first.
    ///
    /// - Parameter components: The identifiers, from the root to the screen.
    public init(_ components: [String]) {
        self.components = components
    }

    /// Creates a path from components separated by `/`, such as `"tabs/browse"`.
    ///
    /// - Parameter value: The path's text; empty components are dropped.
    public init(stringLiteral value: String) {
        self.components = value.split(separator: "/").map(String.init)
    }

    /// Creates a path from an array literal of components, root first.
    ///
    /// - Parameter elements: The identifiers, from the root to the screen.
    public init(arrayLiteral elements: String...) {
        self.components = elements
    }

    /// The path's components joined with `/`.
    public var description: String { components.joined(separator: "/") }

    /// The last component, which names the screen itself; nil for an empty path.
    public var last: String? { components.last }

    /// The path of the parent, or nil for a root or empty path.
    public var parent: IdentifierPath? {
        components.count > 1 ? IdentifierPath(Array(components.dropLast())) : nil
    }

    /// Returns this path with one more component at its end.
    ///
    /// - Parameter component: The child's identifier.
    /// - Returns: The child's path.
    public func appending(_ component: String) -> IdentifierPath {
        // One allocation of the exact size (a save makes one path per node).
        var appended: [String] = []
        appended.reserveCapacity(components.count + 1)
        appended.append(contentsOf: components)
        appended.append(component)
        return IdentifierPath(appended)
    }

    /// Tells whether `other` is this path or starts with all of its components.
    ///
    /// - Parameter other: The path that may lie under this one.
    /// - Returns: True when `other` is this path or one of its descendants.
    public func contains(_ other: IdentifierPath) -> Bool {
        other.components.count >= components.count
            && other.components.prefix(components.count).elementsEqual(components)
    }
}
