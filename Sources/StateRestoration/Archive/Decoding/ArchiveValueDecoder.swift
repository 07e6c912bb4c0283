/// The `Decoder` handed to a value's `init(from:)`: one value of the archive.
///
/// Three words (state, position, packed depth and implied tag) so that passing it as
/// `any Decoder` fits the existential's inline buffer and allocates nothing.
struct ArchiveValueDecoder: Decoder {
    let state: ArchiveDecodingState
    /// Offset of the value's tag (or of its payload, when the tag is implied).
    let position: Int
    let depth32: Int32
    /// The element tag of a typed array, or ``ArchiveTag/none``.
    let implied: UInt8

    init(state: ArchiveDecodingState, position: Int, implied: UInt8, depth: Int) {
        self.state = state
        self.position = position
        self.implied = implied
        self.depth32 = Int32(truncatingIfNeeded: depth)
    }

    var depth: Int { Int(depth32) }

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }

    var userInfo: [CodingUserInfoKey: Any] { state.userInfoForCoding }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        do throws(ArchiveError) {
            let (start, count, _) = try state.openKeyed(at: position, implied: implied)
            return state.keyedContainer(Key.self, start: start, count: count, depth: depth)
        } catch {
            throw state.decodingError(error, type: [String: Any].self, depth: depth, key: nil)
        }
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        do throws(ArchiveError) {
            let (start, end, count, elementTag) = try state.openUnkeyed(
                at: position,
                implied: implied
            )
            return ArchiveUnkeyedDecodingContainer(
                state: state,
                position: start,
                end: end,
                count: count,
                implied: elementTag,
                depth: depth
            )
        } catch {
            throw state.decodingError(error, type: [Any].self, depth: depth, key: nil)
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ArchiveSingleValueDecodingContainer(state: state, position: position, implied: implied, depth: depth)
    }
}
