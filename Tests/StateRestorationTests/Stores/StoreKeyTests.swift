import StateRestoration
import Testing

@Suite struct StoreKeyTests {
    @Test(
        "Valid keys are accepted by every initializer",
        arguments: ["main", "a", "scene-1", "A.b_c-9", "x.", "UPPER", String(repeating: "k", count: 100)])
    func validKeys(text: String) throws {
        let validated = try StoreKey.validated(text)
        #expect(validated.rawValue == text)
        #expect(StoreKey(rawValue: text) == validated)
        #expect(validated.description == text)
    }

    @Test(
        "Invalid keys are refused with an invalidKey error that names the problem",
        arguments: [
            ("", "empty"),
            ("../x", "\"/\""),
            ("a/b", "\"/\""),
            (".hidden", "starts with \".\""),
            (String(repeating: "k", count: 101), "101 characters"),
            ("a b", "\" \""),
            ("café", "U+00E9"),
            ("tab\tkey", "U+0009"),
            ("main.rejected-x", "\".rejected-\""),
        ])
    func invalidKeys(text: String, problem: String) throws {
        #expect(StoreKey(rawValue: text) == nil)
        let error = try #require(throws: StoreError.self) { try StoreKey.validated(text) }
        #expect(error.code == .invalidKey)
        #expect(error.operation == .validateKey)
        #expect(error.path == nil)
        #expect(error.errno == nil)
        #expect(error.description.hasPrefix("cannot use store key: "))
        #expect(error.description.contains(problem), "\(error)")
    }

    @Test("A string literal makes a key, and .main is \"main\"")
    func literal() {
        let key: StoreKey = "scene-2"
        #expect(key.rawValue == "scene-2")
        #expect(StoreKey.main.rawValue == "main")
    }

    @Test("Keys sort by raw value")
    func sorting() {
        let keys: [StoreKey] = ["b", "a.1", "a", "B"]
        #expect(keys.sorted().map(\.rawValue) == ["B", "a", "a.1", "b"])
        #expect(StoreKey("a") < StoreKey("b"))
    }

    #if os(macOS) || os(Linux) || os(FreeBSD) || os(OpenBSD) || os(Windows)
        @Test("An invalid string literal traps, with a message")
        func invalidLiteralTraps() async {
            await #expect(processExitsWith: .failure) {
                let key: StoreKey = "../escape"
                _ = key
            }
        }
    #endif
}
