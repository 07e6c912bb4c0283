import Foundation
import StateRestoration

/// One way of turning a ``StateTree`` into bytes and back.
struct Codec {
    /// The name in the table.
    var name: String
    var encode: (StateTree) throws -> Data
    var decode: (Data) throws -> StateTree

    /// Every codec, in the order of the table; JSON is the baseline the ratios refer to.
    static func all() -> [Codec] {
        [.archive(), .json(), .propertyList(), .keyedArchiver(), .handWritten()]
    }

    /// The package's `ArchiveEncoder`/`ArchiveDecoder`.
    static func archive() -> Codec {
        let encoder = ArchiveEncoder()
        let decoder = ArchiveDecoder()
        return Codec(
            name: "ArchiveEncoder", encode: { try encoder.encode($0) },
            decode: { try decoder.decode(StateTree.self, from: $0) })
    }

    static let jsonName = "JSONEncoder"

    /// Foundation's `JSONEncoder`/`JSONDecoder` with default settings.
    static func json() -> Codec {
        let encoder = JSONEncoder()
        let decoder = JSONDecoder()
        return Codec(
            name: jsonName, encode: { try encoder.encode($0) }, decode: { try decoder.decode(StateTree.self, from: $0) }
        )
    }

    /// Foundation's `PropertyListEncoder`/`PropertyListDecoder`, binary output.
    static func propertyList() -> Codec {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let decoder = PropertyListDecoder()
        return Codec(
            name: "PropertyList(binary)", encode: { try encoder.encode($0) },
            decode: { try decoder.decode(StateTree.self, from: $0) })
    }
}
