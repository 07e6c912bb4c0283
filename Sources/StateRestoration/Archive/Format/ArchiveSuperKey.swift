/// The key `"super"` under which `superEncoder()` and `superDecoder()` store a superclass.
struct ArchiveSuperKey: CodingKey {
    init() {}

    init?(stringValue: String) {
        guard stringValue == "super" else { return nil }
    }

    init?(intValue: Int) {
        return nil
    }

    var stringValue: String { "super" }
    var intValue: Int? { nil }
}
