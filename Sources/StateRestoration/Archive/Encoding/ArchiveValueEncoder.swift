/// The `Encoder` handed to a value's `encode(to:)`: one value slot of the archive.
///
/// Three words (state, slot, packed parent frame and depth) so that passing it as
/// `any Encoder` fits the existential's inline buffer and allocates nothing.
struct ArchiveValueEncoder: Encoder {
    let state: ArchiveEncodingState
    /// Offset in the raw buffer where this value's tag goes.
    let slot: Int
    let parentFrame32: Int32
    let depth32: Int32

    init(state: ArchiveEncodingState, parentFrame: Int, slot: Int, depth: Int) {
        self.state = state
        self.slot = slot
        self.parentFrame32 = Int32(truncatingIfNeeded: parentFrame)
        self.depth32 = Int32(truncatingIfNeeded: depth)
    }

    var parentFrame: Int { Int(parentFrame32) }
    var depth: Int { Int(depth32) }

    var codingPath: [any CodingKey] { state.codingPath(depth: depth) }

    var userInfo: [CodingUserInfoKey: Any] { state.userInfoForCoding }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let frame = state.frame(forSlot: slot, parent: parentFrame, tag: ArchiveTag.keyed)
        return state.keyedContainer(Key.self, frame: frame, depth: depth)
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let frame = state.frame(forSlot: slot, parent: parentFrame, tag: ArchiveTag.array)
        return ArchiveUnkeyedEncodingContainer(state: state, frame: frame, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        ArchiveSingleValueEncodingContainer(state: state, parentFrame: parentFrame, slot: slot, depth: depth)
    }
}
