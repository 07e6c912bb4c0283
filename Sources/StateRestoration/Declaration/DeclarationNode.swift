/// One element of a screen declaration: a screen, a navigation stack, tabs or a
/// custom container, with the screens that may be presented over it.
///
/// Declarations are written with ``DeclarationBuilder`` through ``Screen``,
/// ``Stack``, ``Tabs`` and ``Container``; every element turns into a
/// `DeclarationNode`, so an app can also build nodes in a function and return them.
public struct DeclarationNode: Sendable, DeclarationElement {
    /// What kind of element a node declares.
    public enum Kind: String, Sendable, Codable {
        /// A single screen.
        case screen
        /// A navigation stack: a root screen and screens that may be pushed.
        case stack
        /// Tabs, one of which is selected.
        case tabs
        /// A custom container whose children the app manages.
        case container
    }

    /// The restoration identifier; nil means neither this element nor anything
    /// under it is ever saved.
    public internal(set) var identifier: String?

    /// What the node declares.
    public let kind: Kind

    /// The screen type of a screen or container node.
    public let screenType: (any RestorableScreen.Type)?

    /// The screen the node starts with on a fresh launch (screens and containers
    /// that are part of the initial hierarchy); nil for screens that may only be
    /// pushed or presented.
    let initialScreen: (any RestorableScreen)?

    /// A stack's root (one element), the tabs, or a container's allowed children.
    public internal(set) var children: [DeclarationNode]

    /// The screens a stack may push.
    public internal(set) var pushable: [DeclarationNode]

    /// The elements that may be presented over this one.
    public internal(set) var presentable: [DeclarationNode]

    /// The identifier of the tab selected on a fresh launch; nil selects the first.
    public internal(set) var initialSelection: String?

    /// Where the element was declared, for diagnostics.
    public let location: DeclarationLocation

    init(
        identifier: String?, kind: Kind, screenType: (any RestorableScreen.Type)? = nil,
        initialScreen: (any RestorableScreen)? = nil, children: [DeclarationNode] = [],
        pushable: [DeclarationNode] = [], initialSelection: String? = nil, location: DeclarationLocation
    ) {
        self.identifier = identifier
        self.kind = kind
        self.screenType = screenType
        self.initialScreen = initialScreen
        self.children = children
        self.pushable = pushable
        self.presentable = []
        self.initialSelection = initialSelection
        self.location = location
    }

    /// The node itself.
    public var declarationNode: DeclarationNode { self }

    /// The screen type's key, for screens and containers.
    public var typeKey: ScreenTypeKey? { screenType?.typeKey }

    /// Whether an identifier can be a path component: not empty, and without the `/`
    /// that separates components or the `#` that appends a stack position.
    static func isValidIdentifier(_ identifier: String) -> Bool {
        !identifier.isEmpty && !identifier.contains("/") && !identifier.contains("#")
    }

    /// How the node is named in diagnostics: its identifier, or its type or kind
    /// in angle brackets when it has none.
    var displayName: String {
        if let identifier { return identifier }
        if let screenType { return "<\(screenType.typeKey)>" }
        return "<\(kind.rawValue)>"
    }
}

/// An identifier with the position a navigation stack appends: `product#2`.
struct PositionalIdentifier: Hashable {
    var base: String
    var position: Int

    init(base: String, position: Int) {
        self.base = base
        self.position = position
    }

    init?(_ component: String) {
        guard let hash = component.lastIndex(of: "#"),
            let position = Int(component[component.index(after: hash)...]), position >= 0
        else { return nil }
        self.base = String(component[..<hash])
        self.position = position
    }

    /// `base#position`. A save makes one for every screen on a stack, so the common case (a
    /// non-negative position, and a result that fits a small string) writes the bytes directly
    /// instead of going through string interpolation.
    var component: String {
        var digits = 1
        var rest = position / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let count = base.utf8.count + 1 + digits
        guard position >= 0, count <= 15 else { return "\(base)#\(position)" }
        var base = base
        return base.withUTF8 { utf8 in
            String(unsafeUninitializedCapacity: count) { buffer in
                _ = buffer.initialize(fromContentsOf: utf8)
                buffer[utf8.count] = UInt8(ascii: "#")
                var value = position
                for offset in stride(from: count - 1, through: utf8.count + 1, by: -1) {
                    buffer[offset] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                return count
            }
        }
    }
}
