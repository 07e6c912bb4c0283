/// The name of one archive in a ``RestorationStore``, such as `"main"` or one per scene.
///
/// A key is 1 to 100 characters from `A-Z`, `a-z`, `0-9`, `"."`, `"_"` and `"-"`, does not start
/// with `"."`, does not contain `".rejected-"` (which names rejected copies) and does not end in
/// `".restoring"` (which names the crash-loop markers a coordinator keeps beside an archive while
/// a launch restores it). These rules keep every key a safe, portable file name (no path
/// separators, no `".."`, no hidden files) and keep the store's own names apart from every
/// key's archive: temporary files start with `"."`, rejected copies contain `".rejected-"`,
/// markers end in `".restoring"`, so no key, however chosen, names one of them.
///
/// Make keys from literals for fixed names, and validate names computed at run time:
///
/// ```swift
/// let main: StoreKey = "main"                              // traps if the literal is invalid
/// let scene = try StoreKey.validated("scene-\(sceneID)")   // throws StoreError
/// let maybe = StoreKey(rawValue: userInput)                 // nil if invalid
/// ```
///
/// Keys compare and sort by their raw value, byte for byte. On a case-insensitive file system
/// (the default on Apple platforms) ``FileStore`` stores `"Main"` and `"main"` in the same file,
/// so don't use keys that differ only in case.
public struct StoreKey: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The key's text, such as `"main"`.
    ///
    /// ```swift
    /// StoreKey.main.rawValue  // "main"
    /// ```
    public let rawValue: String

    /// The longest key, in characters.
    static let maximumLength = 100

    /// The text that names rejected copies, which keys may not contain.
    static let reservedMarker = ".rejected-"

    /// The end of a crash-loop marker's key, which keys may not end in.
    static let restorationMarkerSuffix = ".restoring"

    /// The key of an app's single archive, `"main"`.
    ///
    /// ```swift
    /// let data = try store.read(.main)
    /// ```
    public static let main: StoreKey = "main"

    /// Creates a key, or returns `nil` if the text is not a valid key.
    ///
    /// ```swift
    /// StoreKey(rawValue: "scene-1")  // a key
    /// StoreKey(rawValue: "../x")     // nil
    /// ```
    ///
    /// - Parameter rawValue: 1 to 100 characters of `[A-Za-z0-9._-]`, not starting with `"."`,
    ///   not containing `".rejected-"` and not ending in `".restoring"`.
    public init?(rawValue: String) {
        guard Self.problem(with: rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// Creates a key from a string literal, trapping if the literal is not a valid key.
    ///
    /// An invalid literal is a programmer error, so this traps with a message that says what is
    /// wrong, in every build configuration. Use ``validated(_:)`` for text computed at run time.
    ///
    /// ```swift
    /// let key: StoreKey = "settings"
    /// ```
    ///
    /// - Parameter value: A valid key; see ``StoreKey``.
    public init(stringLiteral value: String) {
        if let problem = Self.problem(with: value) {
            fatalError("Invalid StoreKey literal: \(problem)")
        }
        self.rawValue = value
    }

    /// Returns the key spelled by the text, or throws an error that says why it is not valid.
    ///
    /// ```swift
    /// do {
    ///     let key = try StoreKey.validated(name)
    /// } catch {
    ///     print(error)  // cannot use store key: "a/b" contains "/"; ...
    /// }
    /// ```
    ///
    /// - Parameter rawValue: The key's text.
    /// - Returns: The key.
    /// - Throws: ``StoreError`` with code ``StoreError/Code/invalidKey`` if the text is empty,
    ///   longer than 100 characters, contains a character outside `[A-Za-z0-9._-]`, starts with
    ///   `"."`, contains `".rejected-"` or ends in `".restoring"`.
    public static func validated(_ rawValue: String) throws(StoreError) -> StoreKey {
        if let problem = problem(with: rawValue) {
            throw StoreError(code: .invalidKey, operation: .validateKey, reason: problem)
        }
        return StoreKey(unchecked: rawValue)
    }

    /// Creates a key from text already known to be valid.
    private init(unchecked rawValue: String) {
        self.rawValue = rawValue
    }

    /// Returns why the text is not a valid key, or `nil` if it is one.
    static func problem(with text: String) -> String? {
        let shown = text.count > 40 ? "\"\(text.prefix(40))…\"" : "\"\(text)\""
        if text.isEmpty {
            return "the key is empty"
        }
        if let character = firstDisallowedCharacter(in: text) {
            return "\(shown) contains \(character); keys use only A-Z, a-z, 0-9, \".\", \"_\" and \"-\""
        }
        // Every scalar is now ASCII, so the count of scalars is the count of characters.
        if text.unicodeScalars.count > maximumLength {
            return "\(shown) has \(text.unicodeScalars.count) characters; keys have at most \(maximumLength)"
        }
        if text.hasPrefix(".") {
            return "\(shown) starts with \".\""
        }
        if text.contains(reservedMarker) {
            return "\(shown) contains \"\(reservedMarker)\", which names rejected archives"
        }
        if text.hasSuffix(restorationMarkerSuffix) {
            return "\(shown) ends in \"\(restorationMarkerSuffix)\", which names restoration markers"
        }
        return nil
    }

    /// Whether this is the key of a crash-loop marker (``restorationMarker``): no other key
    /// ends in `".restoring"`.
    package var isRestorationMarker: Bool { rawValue.hasSuffix(Self.restorationMarkerSuffix) }

    /// The marker key spelled by `text`, or nil: every marker's key is a valid key followed by
    /// `".restoring"`.
    package static func restorationMarker(named text: String) -> StoreKey? {
        guard text.hasSuffix(restorationMarkerSuffix),
            StoreKey(rawValue: String(text.dropLast(restorationMarkerSuffix.count))) != nil
        else { return nil }
        return StoreKey(unchecked: text)
    }

    /// The key of the crash-loop marker kept beside this key's archive while a launch restores
    /// it: `<key>.restoring` for a key of up to 89 characters; for a longer one, its first 73
    /// characters, `_`, a 64-bit FNV-1a hash of the whole key in hexadecimal and `.restoring`
    /// (100 characters, longer than any of the first form, so the two forms never meet).
    ///
    /// No key ends in `".restoring"`, so a marker never names another key's archive.
    package var restorationMarker: StoreKey {
        let longestPlain = Self.maximumLength - Self.restorationMarkerSuffix.count - 1
        if rawValue.count <= longestPlain { return StoreKey(unchecked: rawValue + Self.restorationMarkerSuffix) }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in rawValue.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        let digits = String(hash, radix: 16)
        let digest = String(repeating: "0", count: 16 - digits.count) + digits
        let kept = rawValue.prefix(Self.maximumLength - Self.restorationMarkerSuffix.count - 1 - digest.count)
        // `_`, not `-`: a kept part ending in `.rejected` must not make the reserved `.rejected-`.
        return StoreKey(unchecked: kept + "_" + digest + Self.restorationMarkerSuffix)
    }

    /// The first character a key may not contain, shown for a message (`"/"`, or
    /// `U+00E9` for one that does not print plainly); nil when every one is allowed.
    static func firstDisallowedCharacter(in text: String) -> String? {
        guard let bad = text.unicodeScalars.first(where: { !isAllowed($0) }) else { return nil }
        return bad.isASCII && bad.value >= 0x20 && bad.value != 0x7F ? "\"\(bad)\"" : "U+\(hex(bad.value))"
    }

    /// Whether a scalar may appear in a key.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "A"..."Z", "a"..."z", "0"..."9", ".", "_", "-": true
        default: false
        }
    }

    /// The value in upper-case hexadecimal, at least four digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Orders keys by their raw values.
    ///
    /// ```swift
    /// ["b", "a"].sorted() as [StoreKey]  // ["a", "b"]
    /// ```
    ///
    /// - Parameters:
    ///   - lhs: A key.
    ///   - rhs: Another key.
    /// - Returns: Whether `lhs`'s raw value sorts before `rhs`'s.
    public static func < (lhs: StoreKey, rhs: StoreKey) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// The key's text, such as `"main"`.
    ///
    /// ```swift
    /// print(StoreKey.main)  // main
    /// ```
    public var description: String { rawValue }
}
