import Foundation

// The codec's only unsafe code, each use kept for its measured gain ("Kept optimisations" in
// Documentation/ArchiveFormat.md): the coding states and keyed containers go without dynamic
// exclusivity checks; keyed-container wrappers are reused per key type, through bit casts between
// a wrapper and the reference it holds; the encoder's bytes live in memory of its own
// (`ArchiveBuffer`); an array decoded through `ArchiveDecodableArray` is bit cast back to `T`.

/// The state of one `ArchiveEncoder.encode(_:)` call, shared by its encoders and containers.
final class ArchiveEncodingState {
    /// Safe unchecked: a state belongs to one encode, which runs on one thread, and every access
    /// to `writer` is one call of an `ArchiveWriter` method, which never calls code outside the
    /// codec (a value's `encode(to:)`, a key's `stringValue`), so no access begins while another
    /// is in progress.
    @exclusivity(unchecked) var writer = ArchiveWriter()
    /// Its keyed-container wrappers by key type (``ArchiveKeptWrapper``); nil once the encode
    /// has ended. Safe unchecked: as `writer`, each access is a lookup or a store.
    @exclusivity(unchecked) var wrappers: ArchiveTypeTable<ArchiveKeptWrapper>? = ArchiveTypeTable()
    let userInfo: [CodingUserInfoKey: Any]

    init(userInfo: [CodingUserInfoKey: any Sendable]) {
        self.userInfo = userInfo
    }

    deinit {
        writer.body.deallocate()
    }
}

/// The state of one decode, shared by its decoders and containers: the input, its field-name
/// table, and the index of its keyed containers.
final class ArchiveDecodingState {
    let reader: ArchiveReader
    let names: [String]
    let nameIndices: [String: Int]
    /// Offset of the root value.
    let rootPosition: Int
    let maximumDepth: Int
    let userInfo: [CodingUserInfoKey: Any]
    /// Safe unchecked: a state belongs to one decode, which runs on one thread, and every access
    /// to `index` is a read or write of one of its fields by the codec, which calls no code outside
    /// the codec (a type's `init(from:)`, a key's `stringValue`) while it holds it, so no access
    /// begins while another is in progress.
    @exclusivity(unchecked) var index = ArchiveIndex()
    /// Its keyed-container wrappers by key type (``ArchiveKeptWrapper``); nil once the decode
    /// has ended. Safe unchecked: as `index`, each access is a lookup or a store.
    @exclusivity(unchecked) var wrappers: ArchiveTypeTable<ArchiveKeptWrapper>? = ArchiveTypeTable()

    /// Copies `data`, checks the preamble, reads the field-name table, and checks that the root
    /// value ends exactly at the end of the input.
    init(_ data: Data, maximumDepth: Int, userInfo: [CodingUserInfoKey: any Sendable]) throws(ArchiveError) {
        reader = ArchiveReader(bytes: [UInt8](data))
        (names, nameIndices, rootPosition) = try reader.readPreamble()
        index.stamps = Array(repeating: 0, count: names.count)
        self.maximumDepth = maximumDepth
        self.userInfo = userInfo
    }
}

/// Writes the entries of one keyed container (its methods: ArchiveEncodingContainers.swift): a
/// class, so that its wrapper can be kept for the next container of its key type, which moves it
/// to its frame (``ArchiveKeptWrapper``).
final class ArchiveKeyedEncodingContainer<Key: CodingKey> {
    let state: ArchiveEncodingState
    /// The container's frame, or -1 when it could not be opened. Safe unchecked: a container
    /// belongs to one wrapper; a coding call moves it only while nothing else holds that wrapper,
    /// and it reads its place only from its own methods, on one thread at a time (containers are
    /// not `Sendable`).
    @exclusivity(unchecked) var frame: Int
    /// Safe unchecked: as `frame`.
    @exclusivity(unchecked) var depth: Int
    /// The name index of each key met so far, by the key's byte (``nameIndex(of:)``); `Int.min`
    /// for a byte not met yet. Safe unchecked: as `frame`.
    @exclusivity(unchecked) private var namesByByte: [Int] = []

    init(state: ArchiveEncodingState, frame: Int, depth: Int) {
        self.state = state
        self.frame = frame
        self.depth = depth
    }

    /// The index of `key`'s name in the archive's name table, added on first use: looked up by
    /// its `stringValue` the first time the container's key type meets it, then found by the
    /// key's byte without asking the key for its name, when the key type's values are one byte of
    /// plain data (a synthesized `CodingKeys` is). Like every coder, this takes a key's name to
    /// depend on its value alone.
    func nameIndex(of key: Key) -> Int {
        guard _isPOD(Key.self), MemoryLayout<Key>.size <= 1 else { return state.writer.nameIndex(of: key.stringValue) }
        // Safe: a value of one byte of plain data is that byte (a type of no bytes has one value).
        let byte = MemoryLayout<Key>.size == 0 ? 0 : Int(unsafeBitCast(key, to: UInt8.self))
        if byte < namesByByte.count && namesByByte[byte] != Int.min { return namesByByte[byte] }
        let index = state.writer.nameIndex(of: key.stringValue)
        if byte >= namesByByte.count { namesByByte += repeatElement(Int.min, count: byte + 1 - namesByByte.count) }
        namesByByte[byte] = index
        return index
    }
}

/// Reads the entries of one keyed container, indexed when it was opened (its methods:
/// ArchiveDecodingContainers.swift): a class, so that its wrapper can be kept for the next
/// container of its key type, which moves it to its index (``ArchiveKeptWrapper``).
final class ArchiveKeyedDecodingContainer<Key: CodingKey> {
    let state: ArchiveDecodingState
    /// Safe unchecked: a container belongs to one wrapper; a coding call moves it only while
    /// nothing else holds that wrapper, and it reads its place only from its own methods, on one
    /// thread at a time (containers are not `Sendable`).
    @exclusivity(unchecked) var keyed: ArchiveDecodingState.Keyed
    /// Safe unchecked: as `keyed`.
    @exclusivity(unchecked) var depth: Int

    init(state: ArchiveDecodingState, keyed: ArchiveDecodingState.Keyed, depth: Int) {
        self.state = state
        self.keyed = keyed
        self.depth = depth
    }
}

/// A keyed container's wrapper (`KeyedEncodingContainer` or `KeyedDecodingContainer`), kept by
/// its coding call for the next container of its key type: making one allocates a box whose type
/// the runtime looks up from the key type, for each of a tree's hundreds of keyed containers.
///
/// A kept wrapper is handed out again only while nothing but the coding call holds it (its box's
/// reference count says so); one still held, by a container of the same key type further out or
/// by one that escaped its `encode(to:)` or `init(from:)`, is replaced by a new one. Kept wrappers
/// hold their coding state, which holds them: a coder lets go of them when its call ends, and
/// keeps none that a container used after the call makes.
class ArchiveKeptWrapper {
    /// The wrapper, as the one reference to its box that it is (never nil: optional because
    /// `isKnownUniquelyReferenced` of a plain `AnyObject` is always false). Safe unchecked: read
    /// and written by one coding call, on one thread.
    @exclusivity(unchecked) fileprivate var box: AnyObject?

    fileprivate init(box: AnyObject) {
        self.box = box
    }

    /// Whether nothing but the coding call holds the wrapper.
    final var isFree: Bool { isKnownUniquelyReferenced(&box) }
}

/// A kept wrapper of type `Wrapper` over `container`.
final class ArchiveKeptWrapperOf<Wrapper, Container>: ArchiveKeptWrapper {
    let container: Container

    private init(box: AnyObject, container: Container) {
        self.container = container
        super.init(box: box)
    }

    /// `wrapper`, over `container`, kept for reuse; nil when the wrapper is not one reference wide
    /// (the standard library does not promise the layout): it is then made anew every time.
    static func keep(_ wrapper: Wrapper, container: Container) -> ArchiveKeptWrapper? {
        guard MemoryLayout<Wrapper>.size == MemoryLayout<AnyObject>.size,
            MemoryLayout<Wrapper>.alignment == MemoryLayout<AnyObject>.alignment
        else { return nil }
        // Safe: the wrapper is exactly one reference (checked above), which this reads as such.
        return ArchiveKeptWrapperOf(box: unsafeBitCast(wrapper, to: AnyObject.self), container: container)
    }

    /// The wrapper; only while it ``isFree``.
    var wrapper: Wrapper {
        // Safe: `box` is a wrapper's one reference (see `keep`), made back into that wrapper.
        unsafeBitCast(box.unsafelyUnwrapped, to: Wrapper.self)
    }
}

extension ArchiveEncodingState {
    /// A keyed container of frame `frame` (-1: one that could not be opened) at `depth`.
    func keyedContainer<Key: CodingKey>(_: Key.Type, frame: Int, depth: Int) -> KeyedEncodingContainer<Key> {
        guard let kept = wrappers?[Key.self], kept.isFree else {
            return newKeyedContainer(Key.self, frame: frame, depth: depth)
        }
        // Safe: what `wrappers` holds under a key type is what `newKeyedContainer` keeps for it.
        let reused = unsafeDowncast(
            kept, to: ArchiveKeptWrapperOf<KeyedEncodingContainer<Key>, ArchiveKeyedEncodingContainer<Key>>.self)
        reused.container.frame = frame
        reused.container.depth = depth
        return reused.wrapper
    }

    /// A new keyed container, kept for reuse.
    private func newKeyedContainer<Key: CodingKey>(_: Key.Type, frame: Int, depth: Int) -> KeyedEncodingContainer<Key> {
        let container = ArchiveKeyedEncodingContainer<Key>(state: self, frame: frame, depth: depth)
        let wrapper = KeyedEncodingContainer(container)
        wrappers?[Key.self] = ArchiveKeptWrapperOf.keep(wrapper, container: container)
        return wrapper
    }
}

extension ArchiveDecodingState {
    /// A keyed container over `keyed` at `depth`.
    func keyedContainer<Key: CodingKey>(_: Key.Type, keyed: Keyed, depth: Int) -> KeyedDecodingContainer<Key> {
        guard let kept = wrappers?[Key.self], kept.isFree else {
            return newKeyedContainer(Key.self, keyed: keyed, depth: depth)
        }
        // Safe: what `wrappers` holds under a key type is what `newKeyedContainer` keeps for it.
        let reused = unsafeDowncast(
            kept, to: ArchiveKeptWrapperOf<KeyedDecodingContainer<Key>, ArchiveKeyedDecodingContainer<Key>>.self)
        reused.container.keyed = keyed
        reused.container.depth = depth
        return reused.wrapper
    }

    /// A new keyed container, kept for reuse.
    private func newKeyedContainer<Key: CodingKey>(_: Key.Type, keyed: Keyed, depth: Int) -> KeyedDecodingContainer<Key>
    {
        let container = ArchiveKeyedDecodingContainer<Key>(state: self, keyed: keyed, depth: depth)
        let wrapper = KeyedDecodingContainer(container)
        wrappers?[Key.self] = ArchiveKeptWrapperOf.keep(wrapper, container: container)
        return wrapper
    }
}

/// The bytes a writer appends, in memory it allocates itself: appending a byte is a capacity
/// check and a store, where an array's append also asks the runtime whether its storage is
/// shared.
///
/// A buffer does not free its memory: its owner calls ``deallocate()`` or ``takeData()`` once
/// (the encoding state when it is freed, `finish()` for its output), and a buffer is never copied
/// while in use (the writer that holds it lives in its state).
struct ArchiveBuffer {
    private var start: UnsafeMutablePointer<UInt8>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int = 1024) {
        start = .allocate(capacity: capacity)
        self.capacity = capacity
    }

    func deallocate() {
        start.deallocate()
    }

    /// Makes room for `extra` more bytes. Safe: the new memory is allocated before the old is
    /// copied and freed, and `count` bytes of the old are initialized.
    mutating func reserve(_ extra: Int) {
        guard capacity - count < extra else { return }
        let newCapacity = Swift.max(capacity * 2, count + extra)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.initialize(from: start, count: count)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }

    /// Safe: `reserve` made room for the byte.
    mutating func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    /// Appends `value` as a LEB128 varint. Safe: `reserve` made room for the longest.
    mutating func appendVarint(_ value: UInt64) {
        reserve(10)
        var value = value
        while value >= 0x80 {
            start[count] = UInt8(truncatingIfNeeded: value) | 0x80
            count += 1
            value >>= 7
        }
        start[count] = UInt8(value)
        count += 1
    }

    /// Safe: `reserve` made room for the bytes, which the raw buffer's count bounds; they are
    /// copied as raw bytes, whatever type the source memory is bound to.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(start + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    mutating func append(_ string: String) {
        var string = string
        string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    mutating func append(_ data: Data) {
        data.withUnsafeBytes { append($0) }
    }

    mutating func append(_ uuid: UUID) {
        withUnsafeBytes(of: uuid.uuid) { append($0) }
    }

    /// Appends bytes `range` of `other`. Safe: the range is within `other`'s initialized bytes.
    mutating func append(_ other: ArchiveBuffer, _ range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= other.count, "bytes outside the buffer")
        append(UnsafeRawBufferPointer(start: other.start + range.lowerBound, count: range.count))
    }

    /// Overwrites the byte at `offset`. Safe: checked to be an initialized byte.
    mutating func replace(at offset: Int, with byte: UInt8) {
        precondition(offset >= 0 && offset < count, "byte outside the buffer")
        start[offset] = byte
    }

    /// The bytes as a `Data` that takes the buffer's memory over, instead of copying it (a save's
    /// archive is hundreds of kilobytes). Safe: called as the buffer's last use, in place of
    /// ``deallocate()``, so nothing else frees or writes the memory, which the `Data` frees.
    func takeData() -> Data {
        Data(bytesNoCopy: start, count: count, deallocator: .custom { memory, _ in memory.deallocate() })
    }
}

extension ArchiveDecodingState {
    /// Decodes `T`, which is the array type `A`, through ``ArchiveDecodableArray``.
    ///
    /// Safe: `A` is `T` (``arrayType(_:)`` found it as `T`'s conformance), so the bit cast passes
    /// the array on unchanged. (`as! T` would cost a dynamic cast per array, and the reserved
    /// storage pays only with the bit cast: see "Kept optimisations" in Documentation/ArchiveFormat.md.)
    func decodeArray<A: ArchiveDecodableArray, T>(_: A.Type, as _: T.Type, with decoder: ArchiveValueDecoder)
        throws -> T
    {
        var container = try decoder.arrayContainer()
        return unsafeBitCast(try A.decodeArray(from: &container), to: T.self)
    }
}
