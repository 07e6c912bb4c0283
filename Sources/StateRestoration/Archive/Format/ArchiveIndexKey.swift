/// The coding-path key of an element of an unkeyed container.
///
/// The string form is computed on demand so that decoding an array element costs no
/// string formatting unless an error or a `codingPath` read needs it.
struct ArchiveIndexKey: CodingKey {
    let index: Int

    init(_ index: Int) {
        self.index = index
    }

    init?(stringValue: String) {
        return nil
    }

    init?(intValue: Int) {
        self.index = intValue
    }

    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
}
