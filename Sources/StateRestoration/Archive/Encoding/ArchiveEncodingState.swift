import Foundation

/// The mutable state of one `ArchiveEncoder.encode(_:)` call: the output bytes, the
/// field-name table and the stack of open containers.
///
/// Values are written straight into one growing byte buffer, with no intermediate tree.
/// A container's header (its element count and byte length) is not known until the
/// container is closed, so the buffer holds each container's tag followed directly by
/// its content; the closed container's count and payload length are recorded in a
/// ``Frame``, and ``write(into:withRegister:)`` (for ``finish()``) splices the headers in
/// while it copies the buffer into the output (one pass, no memmove per container).
///
/// Containers are closed in stack order: writing to a container closes every container
/// opened inside it since. Writing to a container after it was closed that way is an
/// `EncodingError` rather than a silently wrong archive.
///
/// Stored properties are `@exclusivity(unchecked)`: one instance is used by one
/// encode or decode call on one thread, and no method holds an `inout` access to a
/// property across a call that touches the same property, so the dynamic exclusivity
/// checks (which cost more than the work on these hot paths) can never fire.
final class ArchiveEncodingState: ArchiveKeyNaming {
    /// One container, open or closed.
    struct Frame {
        /// Offset in the raw buffer just after the container's tag byte.
        var contentStart: Int
        /// Number of elements written so far (unkeyed; a keyed container's entries are not
        /// counted, the format does not store their number).
        var count = 0
        /// Keyed: the name indices below 64 its entries used, one bit each, to find a key
        /// written twice; larger ones are tracked in ``keyOwner``.
        var keys: UInt64 = 0
        /// Bytes inside this container that are not in the raw buffer: headers of closed
        /// containers nested in it, and external payloads (see ``External``).
        var extra = 0
        /// Final payload length, headers of nested containers included; set on close.
        var payloadLength = 0
        /// Position in the key-ownership undo log when the container was opened.
        var undoStart: Int
        /// The container's tag: keyed, array or typed array.
        var tag: UInt8
        var isOpen = true
        /// Set on close for a keyed container of under 32 payload bytes, whose header is its
        /// tag byte alone: the header is then written into the raw buffer at once, and
        /// ``write(into:withRegister:)`` copies past the container without a stop.
        var headerInPlace = false
    }

    /// Outcome of starting an entry in a container.
    enum EntryStatus {
        case ok
        case closed
        case duplicateKey
    }

    // The raw buffer: the body without container headers.
    @exclusivity(unchecked) var bytes: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) var count = 0
    @exclusivity(unchecked) var capacity: Int

    /// The field-name table, in order of first use, as the archive stores it: each name's
    /// UTF-8 byte count (a varint) and bytes. Bytes rather than an array of `String`s, which
    /// cost a release of each name when the state was reset for the next encode, and a
    /// `withUTF8` call for each in every write.
    @exclusivity(unchecked) var nameTable = ArchiveScratch<UInt8>(capacity: 1024)
    /// The number of names in ``nameTable``.
    @exclusivity(unchecked) var nameCount = 0
    /// Finds a key's name-table index: from ``ArchiveNameBook/take()`` for the length of the
    /// encode (see ``takeNameBook()``), then nil (a container that escaped the encode gets a
    /// book of its own, see ``nameNumber(of:)``).
    @exclusivity(unchecked) var book: ArchiveNameBook? {
        didSet {
            unmanagedBook = book.map { Unmanaged.passUnretained($0) }
            // The key tables' numbers were the previous book's (or were learned while it was set).
            keyStamp = ArchiveKeyTable.newStamp()
        }
    }
    /// The stamp of this encode's use of its name book in the key tables (``ArchiveKeyTable``),
    /// whose numbers are the book's: new whenever ``book`` changes (an encode takes one, gives it
    /// back, or makes a private one), so that a table entry is only ever read with the book it
    /// was learned from, and a key found in a table always finds the book set.
    @exclusivity(unchecked) var keyStamp = ArchiveKeyTable.newStamp()
    /// ``book``, read without reference counting on every key (a retain and a release per key
    /// cost more than the book saves); valid whenever `book` is set.
    @exclusivity(unchecked) private var unmanagedBook: Unmanaged<ArchiveNameBook>?

    @exclusivity(unchecked) var frames = ArchiveScratch<Frame>(capacity: 64)
    @exclusivity(unchecked) var openFrames = ArchiveScratch<Int>(capacity: 16)
    /// Bytes of the output that are not in the raw buffer and sit outside every
    /// container: headers of closed top-level containers and external payloads.
    @exclusivity(unchecked) var rootExtra = 0

    /// A `Data` payload of at least ``externalThreshold`` bytes that is not copied into
    /// the raw buffer: ``write(into:withRegister:)`` copies it into the output at `position`, the raw
    /// buffer's offset just after its length. A node that holds its children's
    /// encodings, or an archive that holds its root's, then copies those bytes once
    /// rather than twice, and its buffer stays small. The payload's length is counted
    /// in the enclosing container's ``Frame/extra``, like a nested container's header.
    struct External {
        var position: Int
        var data: Data
        /// An encoding written in place of `data` (which is then empty), straight into the output.
        var pending: ArchivePendingEncoding?
        /// The CRC-32C register of the payload, when known: see ``resolveRegisters(_:)``.
        var register: UInt32?

        var count: Int { pending?.size ?? data.count }
    }

    /// `Data` payloads of at least this many bytes are external; `Int.max` (none) unless
    /// the caller owns every `Data` encoded: a payload is read when the output is written, so a
    /// `Data(bytesNoCopy:count:deallocator: .none)` made inside a type's `encode(to:)` over
    /// memory that scope frees would be read after it is gone. The coordinator's node
    /// records and archive body hold only `Data` that the coordinator's own encodes made.
    @exclusivity(unchecked) var externalThreshold: Int
    @exclusivity(unchecked) var externals: [External] = []

    /// `keyOwner[name]` is the open keyed container that last wrote `name`, for duplicate-key
    /// detection of the names from 64 on (see ``Frame/keys``); the undo log restores it when a
    /// container closes.
    @exclusivity(unchecked) var keyOwner = ArchiveScratch<Int>(capacity: 64)
    /// Pairs of (name index, previous owner), pushed per key and popped on close.
    @exclusivity(unchecked) var undo = ArchiveScratch<Int>(capacity: 128)

    /// Coding-path keys of the value being encoded.
    @exclusivity(unchecked) var path = ArchiveCodingPath()
    /// A value slot created by `superEncoder()` that may still be empty.
    @exclusivity(unchecked) var pendingSlot = -1
    @exclusivity(unchecked) var typeCache = ArchiveTypeCache()
    /// Reusable keyed-container wrappers, kept with the state from one encode to the next;
    /// retired when an encode ends, until a later encode reuses the state (``recycle(_:)``).
    let containers = ArchiveContainerCache()
    @exclusivity(unchecked) var userInfo: [CodingUserInfoKey: any Sendable]

    init(userInfo: [CodingUserInfoKey: any Sendable], capacity: Int = 4096, externalThreshold: Int = .max) {
        self.userInfo = userInfo
        self.externalThreshold = externalThreshold
        self.capacity = capacity
        self.bytes = .allocate(capacity: capacity)
    }

    deinit {
        bytes.deallocate()
    }

    // MARK: - Reuse

    /// The states of finished encodes, for later encodes to take up (``make(userInfo:externalThreshold:)``,
    /// ``recycle(_:)``): an encode then starts with buffers already grown to the size encodes
    /// need, and without allocating them (a small encode's fixed cost was 17,000 instructions, and
    /// growing the container and byte buffers of the benchmark's medium tree 2 % of its encode).
    private static let pool = ArchiveObjectPool<ArchiveEncodingState>()
    /// A state whose raw buffer grew past this many bytes, or whose other buffers grew past the
    /// bounds below (in elements), is not kept, so that pooled states stay small. (It takes its
    /// keyed-container wrappers with it: making them again costs little next to such an encode.)
    static let maximumKeptCapacity = 1 << 20
    static let maximumKeptFrames = 16_384
    /// Names: the name table's bytes, and ``keyOwner``'s entries, one per name.
    static let maximumKeptNameBytes = 1 << 16
    static let maximumKeptNames = 4096
    static let maximumKeptUndo = 1 << 16
    static let maximumKeptExternals = 4096

    /// A state for an encode that starts: a pooled one if there is one.
    static func make(userInfo: [CodingUserInfoKey: any Sendable], externalThreshold: Int) -> ArchiveEncodingState {
        guard let state = pool.take() else {
            return ArchiveEncodingState(userInfo: userInfo, externalThreshold: externalThreshold)
        }
        state.userInfo = userInfo
        state.externalThreshold = externalThreshold
        return state
    }

    /// Ends an encode (after ``returnNameBook()``) and keeps its state, with its container
    /// wrappers, for a later one, unless something else still holds it: a container or encoder
    /// that escaped the encode (such a state is never reused, so an escaped container can never
    /// write into a later encode), or an ``ArchivePendingEncoding``, which recycles the state
    /// once it is done with it. A state that grew past the limits above is not kept either.
    static func recycle(_ state: inout ArchiveEncodingState) {
        state.containers.endCall()
        guard isKnownUniquelyReferenced(&state), state.isSmallEnoughToKeep else { return }
        state.reset()
        pool.put(state)
    }

    /// Whether every buffer is within the limits for a pooled state.
    var isSmallEnoughToKeep: Bool {
        capacity <= Self.maximumKeptCapacity && frames.capacity <= Self.maximumKeptFrames
            && nameTable.capacity <= Self.maximumKeptNameBytes && keyOwner.capacity <= Self.maximumKeptNames
            && undo.capacity <= Self.maximumKeptUndo && externals.capacity <= Self.maximumKeptExternals
    }

    /// Forgets the encode that is over, keeping the buffers' memory.
    private func reset() {
        book = nil
        count = 0
        nameTable.truncate(to: 0)
        nameCount = 0
        frames.truncate(to: 0)
        openFrames.truncate(to: 0)
        rootExtra = 0
        externals.removeAll(keepingCapacity: true)
        keyOwner.truncate(to: 0)
        undo.truncate(to: 0)
        path.removeAll()
        pendingSlot = -1
        closedSize = -1
        userInfo = [:]
        // Nothing holds this state, so no container of its last encode can reach the cache.
        containers.reopen()
    }

    // MARK: - Raw buffer

    @inline(__always)
    func ensure(_ needed: Int) {
        if capacity &- count < needed { grow(needed) }
    }

    @inline(never)
    func grow(_ needed: Int) {
        let newCapacity = Swift.max(capacity &* 2, count + needed)
        let newBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBytes.initialize(from: bytes, count: count)
        bytes.deallocate()
        bytes = newBytes
        capacity = newCapacity
    }

    @inline(__always)
    func appendByte(_ byte: UInt8) {
        ensure(1)
        bytes[count] = byte
        count &+= 1
    }

    /// Appends a varint; the caller has ensured 10 bytes of capacity.
    @inline(__always)
    func appendVarintUnchecked(_ value: UInt64) {
        var value = value
        var position = count
        while value >= 0x80 {
            bytes[position] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            position &+= 1
        }
        bytes[position] = UInt8(truncatingIfNeeded: value)
        count = position &+ 1
    }

    @inline(__always)
    func appendVarint(_ value: UInt64) {
        ensure(10)
        appendVarintUnchecked(value)
    }

    @inline(__always)
    func appendRaw(_ source: UnsafeRawBufferPointer) {
        ensure(source.count)
        appendBytesUnchecked(source.baseAddress, source.count)
    }

    // MARK: - Scalars (tag and payload)

    /// The most bytes a scalar value takes: a tag and a 10-byte varint. ``beginEntry(_:number:)``
    /// leaves this much room after a key's name index, so the keyed container writes scalar
    /// values with the `InRoom` writers, which do not check the capacity again.
    static let scalarRoom = 11

    @inline(__always)
    func writeNull() {
        appendByte(ArchiveTag.null)
    }

    @inline(__always)
    func writeBool(_ value: Bool) {
        appendByte(value ? ArchiveTag.boolTrue : ArchiveTag.boolFalse)
    }

    /// ``writeBool(_:)`` with ``scalarRoom`` bytes of capacity already ensured.
    @inline(__always)
    func writeBoolInRoom(_ value: Bool) {
        assert(capacity &- count >= Self.scalarRoom, "a scalar written without its room")
        bytes[count] = value ? ArchiveTag.boolTrue : ArchiveTag.boolFalse
        count &+= 1
    }

    /// ``writeNull()`` with ``scalarRoom`` bytes of capacity already ensured.
    @inline(__always)
    func writeNullInRoom() {
        assert(capacity &- count >= Self.scalarRoom, "a scalar written without its room")
        bytes[count] = ArchiveTag.null
        count &+= 1
    }

    @inline(__always)
    func writeInt(_ value: Int64) {
        ensure(Self.scalarRoom)
        writeIntInRoom(value)
    }

    /// ``writeInt(_:)`` with ``scalarRoom`` bytes of capacity already ensured.
    @inline(__always)
    func writeIntInRoom(_ value: Int64) {
        assert(capacity &- count >= Self.scalarRoom, "a scalar written without its room")
        let zigzag = ArchiveFormat.zigzag(value)
        if zigzag < 64 {
            bytes[count] = ArchiveTag.fixInt | UInt8(truncatingIfNeeded: zigzag)
            count &+= 1
            return
        }
        bytes[count] = ArchiveTag.int
        count &+= 1
        appendVarintUnchecked(zigzag)
    }

    @inline(__always)
    func writeUInt(_ value: UInt64) {
        ensure(Self.scalarRoom)
        writeUIntInRoom(value)
    }

    /// ``writeUInt(_:)`` with ``scalarRoom`` bytes of capacity already ensured.
    @inline(__always)
    func writeUIntInRoom(_ value: UInt64) {
        assert(capacity &- count >= Self.scalarRoom, "a scalar written without its room")
        bytes[count] = ArchiveTag.uint
        count &+= 1
        appendVarintUnchecked(value)
    }

    @inline(__always)
    func writeFloatPayload(_ value: Float) {
        ensure(4)
        UnsafeMutableRawPointer(bytes + count).storeBytes(of: value.bitPattern.littleEndian, as: UInt32.self)
        count &+= 4
    }

    @inline(__always)
    func writeFloat(_ value: Float) {
        appendByte(ArchiveTag.float32)
        writeFloatPayload(value)
    }

    @inline(__always)
    func writeDoublePayload(_ value: Double) {
        ensure(8)
        UnsafeMutableRawPointer(bytes + count).storeBytes(of: value.bitPattern.littleEndian, as: UInt64.self)
        count &+= 8
    }

    /// Writes `value` as a decimal tag (`base + scale`, zigzag varint mantissa) when that is
    /// exact and shorter, otherwise as `fullTag` and 8 bytes.
    @inline(__always)
    func writeDecimalOrDouble(_ value: Double, base: UInt8, fullTag: UInt8) {
        ensure(Self.scalarRoom)
        writeDecimalOrDoubleInRoom(value, base: base, fullTag: fullTag)
    }

    /// ``writeDecimalOrDouble(_:base:fullTag:)`` with ``scalarRoom`` bytes of capacity already
    /// ensured.
    @inline(__always)
    func writeDecimalOrDoubleInRoom(_ value: Double, base: UInt8, fullTag: UInt8) {
        assert(capacity &- count >= Self.scalarRoom, "a scalar written without its room")
        if let (mantissa, scale) = ArchiveFormat.decimalForm(value) {
            bytes[count] = base | scale
            count &+= 1
            appendVarintUnchecked(mantissa)
            return
        }
        bytes[count] = fullTag
        UnsafeMutableRawPointer(bytes + (count &+ 1)).storeBytes(of: value.bitPattern.littleEndian, as: UInt64.self)
        count &+= 9
    }

    @inline(__always)
    func writeDouble(_ value: Double) {
        writeDecimalOrDouble(value, base: ArchiveTag.decimalDouble, fullTag: ArchiveTag.float64)
    }

    /// ``writeDouble(_:)`` with ``scalarRoom`` bytes of capacity already ensured.
    @inline(__always)
    func writeDoubleInRoom(_ value: Double) {
        writeDecimalOrDoubleInRoom(value, base: ArchiveTag.decimalDouble, fullTag: ArchiveTag.float64)
    }

    @inline(__always)
    func writeStringPayload(_ value: String) {
        withUTF8(of: value) { base, length in
            ensure(length &+ 10)
            appendVarintUnchecked(UInt64(length))
            appendBytesUnchecked(base, length)
        }
    }

    @inline(__always)
    func writeString(_ value: String) {
        withUTF8(of: value) { base, length in
            writeStringHeader(length)
            appendBytesUnchecked(base, length)
        }
    }

    /// Calls `body` with the address and length of `value`'s UTF-8.
    @inline(__always)
    private func withUTF8(of value: String, _ body: (UnsafeRawPointer?, Int) -> Void) {
        // `String.UTF8View.span` came with Swift 6.2 and its standard library.
        #if compiler(>=6.2)
            if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
                // Borrowed: no copy of the string, so no retain and release of its storage.
                let utf8 = value.utf8.span
                utf8.withUnsafeBytes { body($0.baseAddress, $0.count) }
                return
            }
        #endif
        var value = value
        value.withUTF8 { body(UnsafeRawPointer($0.baseAddress), $0.count) }
    }

    /// A string's tag (and length), leaving room for its `length` bytes.
    @inline(__always)
    private func writeStringHeader(_ length: Int) {
        ensure(length &+ 11)
        if length < 64 {
            bytes[count] = ArchiveTag.fixString | UInt8(truncatingIfNeeded: length)
            count &+= 1
        } else {
            bytes[count] = ArchiveTag.string
            count &+= 1
            appendVarintUnchecked(UInt64(length))
        }
    }

    /// Appends the `length` bytes at `source`; the caller has ensured the room. Up to 16
    /// bytes are copied with two overlapping loads and stores, not a call into `memcpy`
    /// (most strings of a state are that short).
    @inline(__always)
    func appendBytesUnchecked(_ source: UnsafeRawPointer?, _ length: Int) {
        guard let source, length > 0 else { return }
        let target = UnsafeMutableRawPointer(bytes + count)
        if length >= 8 && length <= 16 {
            target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            let last = length &- 8
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: last, as: UInt64.self), toByteOffset: last, as: UInt64.self)
        } else if length >= 4 && length < 8 {
            target.storeBytes(of: source.loadUnaligned(as: UInt32.self), as: UInt32.self)
            let last = length &- 4
            target.storeBytes(
                of: source.loadUnaligned(fromByteOffset: last, as: UInt32.self), toByteOffset: last, as: UInt32.self)
        } else if length < 4 {
            for index in 0..<length {
                let byte = source.load(fromByteOffset: index, as: UInt8.self)
                target.storeBytes(of: byte, toByteOffset: index, as: UInt8.self)
            }
        } else {
            target.copyMemory(from: source, byteCount: length)
        }
        count &+= length
    }

    func writeDataPayload(_ value: Data) {
        appendVarint(UInt64(value.count))
        guard value.count >= externalThreshold else {
            value.withUnsafeBytes { appendRaw($0) }
            return
        }
        // Copied once, when the output is written, straight into it.
        addExternal(External(position: count, data: value))
    }

    /// Records a payload that the output gets at the current position without the raw buffer
    /// holding it, and counts its bytes in the enclosing container's length.
    private func addExternal(_ external: External) {
        externals.append(external)
        if let top = openFrames.last {
            frames[top].extra += external.count
        } else {
            rootExtra += external.count
        }
    }

    func writeData(_ value: Data) {
        appendByte(ArchiveTag.data)
        writeDataPayload(value)
    }

    /// Writes `pending` as the `Data` it stands for; ``write(into:withRegister:)`` has it write its
    /// bytes straight into the output.
    func writePending(_ pending: ArchivePendingEncoding) {
        appendByte(ArchiveTag.data)
        appendVarint(UInt64(pending.size))
        addExternal(External(position: count, data: Data(), pending: pending))
    }

    @inline(__always)
    func writeDate(_ value: Date) {
        writeDecimalOrDouble(
            value.timeIntervalSinceReferenceDate, base: ArchiveTag.decimalDate, fullTag: ArchiveTag.date)
    }

    @inline(__always)
    func writeUUIDPayload(_ value: UUID) {
        ensure(16)
        withUnsafeBytes(of: value.uuid) { raw in
            if let base = raw.baseAddress {
                UnsafeMutableRawPointer(bytes + count).copyMemory(from: base, byteCount: 16)
            }
        }
        count &+= 16
    }

    @inline(__always)
    func writeUUID(_ value: UUID) {
        appendByte(ArchiveTag.uuid)
        writeUUIDPayload(value)
    }

    func writeURL(_ value: URL) {
        appendByte(ArchiveTag.url)
        writeStringPayload(value.absoluteString)
    }

    // MARK: - Field names

    /// The name book's number for `name`, the text of a key (see ``ArchiveNameBook``).
    ///
    /// Keys are almost always the same string instances over and over (the literals of
    /// synthesized `CodingKeys`), so the book first probes a cache keyed by the string's two
    /// raw words: a small string's words are its contents, a large string's words identify its
    /// (immutable, retained by the cache) storage, so equal words imply equal strings. Misses
    /// fall back to a dictionary.
    @inline(__always)
    func nameNumber(of name: String) -> Int {
        return (unmanagedBook ?? privateBook())._withUnsafeGuaranteedRef { book in
            let words = ArchiveNameCache.words(of: name)
            return book.cache.index(for: words) ?? book.number(of: name, words: words)
        }
    }

    /// ``nameNumber(of:)``, for the key tables.
    @inline(__always)
    func keyNumber(forName name: String) -> Int {
        nameNumber(of: name)
    }

    /// The index in the field-name table of the name the book numbers `number`, adding it on
    /// first use. The book's number gives the index in this encode's table if the name was
    /// used in it already.
    @inline(__always)
    func nameIndex(number: Int) -> Int {
        return unmanagedBook.unsafelyUnwrapped._withUnsafeGuaranteedRef { book in
            if book.stamps[number] == book.epoch { return book.indices[number] }
            return firstUse(number, in: book)
        }
    }

    /// Adds the name `number` of `book` to the name table.
    @inline(never)
    func firstUse(_ number: Int, in book: ArchiveNameBook) -> Int {
        var name = book.names[number]
        let index = nameCount
        nameCount &+= 1
        name.withUTF8 { utf8 in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { length in
                let size = Self.storeVarint(UInt64(utf8.count), at: length.baseAddress.unsafelyUnwrapped)
                nameTable.append(contentsOf: UnsafeBufferPointer(rebasing: length[..<size]))
            }
            nameTable.append(contentsOf: utf8)
        }
        keyOwner.append(-1)
        book.stamps[number] = book.epoch
        book.indices[number] = index
        return index
    }

    /// A book for a container used after its encode gave the pooled one back.
    @inline(never)
    private func privateBook() -> Unmanaged<ArchiveNameBook> {
        let book = ArchiveNameBook()
        book.begin()
        // Its numbers are not the pooled book's: the names already in the table are found again.
        for name in tableNames() {
            let number = book.number(of: name, words: ArchiveNameCache.words(of: name))
            book.stamps[number] = book.epoch
            book.indices[number] = number
        }
        self.book = book
        return Unmanaged.passUnretained(book)
    }

    /// The names in ``nameTable``, in order.
    func tableNames() -> [String] {
        nameTable.withElements { table in
            var names: [String] = []
            var position = 0
            while position < table.count {
                var length = 0
                var shift = 0
                while table[position] & 0x80 != 0 {
                    length |= Int(table[position] & 0x7F) << shift
                    shift += 7
                    position += 1
                }
                length |= Int(table[position]) << shift
                position += 1
                names.append(
                    String(
                        decoding: UnsafeBufferPointer(rebasing: table[position..<(position + length)]), as: UTF8.self))
                position += length
            }
            return names
        }
    }

    @inline(__always)
    static func indexOrInsert(_ slot: inout Int, _ candidate: Int) -> Int {
        if slot < 0 { slot = candidate }
        return slot
    }

    // MARK: - Containers

    /// Writes `tag` and opens a container frame for it.
    @inline(__always)
    func openFrame(tag: UInt8) -> Int {
        appendByte(tag)
        let index = frames.count
        frames.append(Frame(contentStart: count, undoStart: undo.count, tag: tag))
        openFrames.append(index)
        return index
    }

    /// Closes the innermost open container, recording its header size with its parent.
    @inline(__always)
    func closeTopFrame() {
        // Open frames are frames that exist: their addresses need no bounds check.
        let index = openFrames.removeLast()
        let entry = frames.uncheckedAddress(index)
        let frame = entry.pointee
        let payloadLength = count - frame.contentStart + frame.extra
        entry.pointee.payloadLength = payloadLength
        entry.pointee.isOpen = false
        if frame.tag == ArchiveTag.keyed && payloadLength < 32 {
            // The tag byte, at `contentStart - 1`, is in the buffer: the container holds it.
            bytes[frame.contentStart &- 1] = ArchiveTag.smallKeyed | UInt8(truncatingIfNeeded: payloadLength)
            entry.pointee.headerInPlace = true
        }
        let headerSize = Self.headerSize(tag: frame.tag, count: frame.count, payloadLength: payloadLength)
        while undo.count > frame.undoStart {
            let previousOwner = undo.removeLast()
            keyOwner[undo.removeLast()] = previousOwner
        }
        if let parent = openFrames.last {
            frames.uncheckedAddress(parent).pointee.extra += headerSize + frame.extra
        } else {
            rootExtra += headerSize + frame.extra
        }
    }

    /// Fills a `superEncoder()` slot that was never written with an empty keyed container.
    @inline(never)
    func settlePending() {
        let slot = pendingSlot
        pendingSlot = -1
        if slot == count {
            _ = openFrame(tag: ArchiveTag.keyed)
            closeTopFrame()
        }
    }

    /// Closes every open container above `parent` (all of them when `parent` is -1).
    @inline(__always)
    func closeFrames(above parent: Int) {
        if pendingSlot >= 0 { settlePending() }
        while let top = openFrames.last, top != parent {
            closeTopFrame()
        }
    }

    /// Makes `frame` the innermost open container, or returns false if it was closed.
    @inline(never)
    func activateSlow(_ frame: Int) -> Bool {
        guard frame >= 0, frames[frame].isOpen else { return false }
        closeFrames(above: frame)
        return true
    }

    /// Starts an entry of keyed container `frame` for the key the name book numbers
    /// `number` (see ``nameNumber(of:)``): checks it is writable and the key is new,
    /// then writes the key's name index, leaving ``scalarRoom`` bytes of capacity after it.
    @inline(__always)
    func beginEntry(_ frame: Int, number: Int) -> EntryStatus {
        if pendingSlot >= 0 { settlePending() }
        if openFrames.last != frame {
            guard activateSlow(frame) else { return .closed }
        }
        let name = nameIndex(number: number)
        if name < 64 {
            let bit: UInt64 = 1 &<< UInt64(name)
            // `frame` is the innermost open container, so in range.
            let entry = frames.uncheckedAddress(frame)
            if entry.pointee.keys & bit != 0 { return .duplicateKey }
            entry.pointee.keys |= bit
        } else {
            let owner = keyOwner[name]
            if owner == frame { return .duplicateKey }
            undo.append(name)
            undo.append(owner)
            keyOwner[name] = frame
        }
        ensure(10 &+ Self.scalarRoom)
        appendVarintUnchecked(UInt64(name))
        return .ok
    }

    /// Starts an element of unkeyed container `frame`; returns its index, or -1 if closed.
    @inline(__always)
    func beginElement(_ frame: Int) -> Int {
        if pendingSlot >= 0 { settlePending() }
        if openFrames.last != frame {
            guard activateSlow(frame) else { return -1 }
        }
        // `frame` is the innermost open container, so in range.
        let entry = frames.uncheckedAddress(frame)
        let index = entry.pointee.count
        entry.pointee.count = index &+ 1
        return index
    }

    /// Prepares to write a single value into `slot` of container `parent`; false if the
    /// slot already holds a value or its container was closed.
    @inline(__always)
    func beginSingleValue(parent: Int, slot: Int) -> Bool {
        if pendingSlot == slot {
            pendingSlot = -1
        } else if pendingSlot >= 0 {
            settlePending()
        }
        if parent >= 0 {
            guard frames[parent].isOpen else { return false }
        }
        closeFrames(above: parent)
        return count == slot
    }

    /// The container an encoder for `slot` should write into: the one already opened for
    /// the slot (a subclass and its superclass sharing one encoder), or a new one.
    /// Returns -1 when the slot cannot take a container.
    @inline(__always)
    func frame(forSlot slot: Int, parent: Int, tag: UInt8) -> Int {
        // Fast path: nothing written to the slot yet, its container is the innermost one.
        if count == slot && pendingSlot < 0 && openFrames.last == parent {
            return openFrame(tag: tag)
        }
        return existingFrame(forSlot: slot, parent: parent, tag: tag)
    }

    /// ``frame(forSlot:parent:tag:)`` when the slot may hold a container already.
    @inline(never)
    private func existingFrame(forSlot slot: Int, parent: Int, tag: UInt8) -> Int {
        var position = openFrames.count
        while position > 0 {
            position -= 1
            let index = openFrames[position]
            guard frames[index].contentStart == slot &+ 1 else { continue }
            guard frames[index].tag == tag else { return -1 }
            closeFrames(above: index)
            return index
        }
        guard beginSingleValue(parent: parent, slot: slot) else { return -1 }
        return openFrame(tag: tag)
    }

    // MARK: - Coding path

    /// Records `key` as the coding-path component at `depth` (0-based).
    @inline(__always)
    func setPath(depth: Int, key: some CodingKey) {
        path.set(key, at: depth)
    }

    /// Records the index of an unkeyed container's element as the component at `depth`.
    @inline(__always)
    func setPath(depth: Int, index: Int) {
        path.set(index: index, at: depth)
    }

    func codingPath(depth: Int) -> [any CodingKey] {
        path.prefix(depth)
    }

    func codingPath(depth: Int, appending key: any CodingKey) -> [any CodingKey] {
        var result = codingPath(depth: depth)
        result.append(key)
        return result
    }

    var userInfoForCoding: [CodingUserInfoKey: Any] {
        var result: [CodingUserInfoKey: Any] = [:]
        for (key, value) in userInfo {
            result[key] = value
        }
        return result
    }

    // MARK: - Finishing

    /// Closes every container and assembles the archive: preamble, field names, body
    /// with the container headers spliced in.
    func finish() -> Data {
        finish(reservingPrefix: 0, registers: nil) { _, _, _ in }
    }

    /// External payloads of at least this many bytes whose CRC-32C register is known are
    /// folded into the archive's register with ``CRC32C/shift(_:byZeroBytes:)`` (a few table
    /// lookups per set bit of the length) rather than read again (about two microseconds per
    /// 4 KB). With a bitwise shift (about a microsecond) the bound was 4 KB, so a node record
    /// read all of its screens' records again, each under 4 KB.
    static let knownRegisterThreshold = 256

    /// Like ``finish()``, with `prefix` bytes before the archive in the same allocation,
    /// which `fillPrefix` writes once the archive is in place (an envelope header that
    /// needs the archive's length and checksum, say), so that no second copy is made.
    ///
    /// With `registers`, `fillPrefix` also gets the archive's CRC-32C register from 0
    /// (``CRC32C/register(_:)``), and `registers` is asked for the register of each large
    /// external payload: a payload whose register it knows (an earlier encoding of the same
    /// bytes) is not read again. It is asked in the order the payloads were encoded.
    func finish(
        reservingPrefix prefix: Int, registers: ((Data) -> UInt32?)?,
        fillPrefix: (_ prefix: UnsafeMutableRawBufferPointer, _ archive: UnsafeRawBufferPointer, _ register: UInt32?)
            -> Void
    ) -> Data {
        let archiveSize = close()
        if let registers { resolveRegisters(registers) }
        let total = prefix + archiveSize
        let (out, capacity) = ArchiveOutputPool.take(total)
        let register = write(into: out + prefix, withRegister: registers != nil)
        if prefix > 0 || registers != nil {
            fillPrefix(
                UnsafeMutableRawBufferPointer(start: out, count: prefix),
                UnsafeRawBufferPointer(start: out + prefix, count: archiveSize), register)
        }
        return ArchiveOutputPool.data(out, count: total, capacity: capacity)
    }

    /// Closes every container; returns the size of the archive ``write(into:withRegister:)``
    /// writes.
    func close() -> Int {
        closeFrames(above: -1)
        closedSize = outputSize
        return closedSize
    }

    /// The size of the archive the bytes so far make.
    private var outputSize: Int {
        let namesSize =
            ArchiveFormat.varintSize(UInt64(nameCount)) + ArchiveFormat.varintSize(UInt64(nameTable.count))
            + nameTable.count
        return ArchiveFormat.preambleSize + namesSize + count + rootExtra
    }

    /// The size ``close()`` returned, which ``write(into:withRegister:)`` checks.
    private var closedSize = -1

    /// Asks `registers`, in the order the payloads were encoded, for the CRC-32C register of
    /// each external payload of at least ``knownRegisterThreshold`` bytes (an encoding written
    /// in place knows its own).
    func resolveRegisters(_ registers: (Data) -> UInt32?) {
        for index in externals.indices
        where externals[index].pending == nil && externals[index].data.count >= Self.knownRegisterThreshold {
            externals[index].register = registers(externals[index].data)
        }
    }

    /// Writes the archive, preamble, field names and body with the container headers spliced
    /// in, at `out`, which has room for the size ``close()`` returned; with `withRegister`,
    /// returns its CRC-32C register from 0, read from the bytes except those of payloads whose
    /// register is known.
    func write(into out: UnsafeMutablePointer<UInt8>, withRegister: Bool) -> UInt32? {
        // Nothing may have been written since `close()` sized the output (a container that
        // escaped a pending encoding, say): the caller's buffer has room for that size only.
        precondition(openFrames.count == 0 && outputSize == closedSize, "archive written after it was closed")
        var o = 0
        out[o] = ArchiveFormat.magic.0
        out[o + 1] = ArchiveFormat.magic.1
        out[o + 2] = ArchiveFormat.magic.2
        out[o + 3] = ArchiveFormat.version
        o += ArchiveFormat.preambleSize
        o += Self.storeVarint(UInt64(nameCount), at: out + o)
        o += Self.storeVarint(UInt64(nameTable.count), at: out + o)
        nameTable.withElements { table in
            if let base = table.baseAddress, table.count > 0 {
                (out + o).initialize(from: base, count: table.count)
                o += table.count
            }
        }
        var source = 0
        var nextExternal = 0
        // The payloads whose registers are known, as (offset in `out`, length, register).
        var known: [(offset: Int, count: Int, register: UInt32)] = []
        func copyExternal(_ index: Int) {
            let start = o + (externals[index].position - source)
            if let register = self.copyExternal(index, into: out, at: &o, from: &source) {
                known.append((start, externals[index].count, register))
            }
        }
        for index in 0..<frames.count {
            let frame = frames[index]
            // Its header is in the raw buffer already (see `closeTopFrame()`).
            if frame.headerInPlace { continue }
            while nextExternal < externals.count, externals[nextExternal].position < frame.contentStart {
                copyExternal(nextExternal)
                nextExternal += 1
            }
            let run = frame.contentStart - source
            (out + o).initialize(from: bytes + source, count: run)
            o += run
            switch frame.tag {
            case ArchiveTag.keyed:
                o += Self.storeVarint(UInt64(frame.payloadLength), at: out + o)
            case ArchiveTag.array where frame.count < 32:
                out[o - 1] = ArchiveTag.smallArray | UInt8(truncatingIfNeeded: frame.count)
                o += Self.storeVarint(UInt64(frame.payloadLength), at: out + o)
            default:
                o += Self.storeVarint(UInt64(frame.count), at: out + o)
                o += Self.storeVarint(UInt64(frame.payloadLength), at: out + o)
            }
            source = frame.contentStart
        }
        while nextExternal < externals.count {
            copyExternal(nextExternal)
            nextExternal += 1
        }
        (out + o).initialize(from: bytes + source, count: count - source)
        o += count - source
        precondition(o == closedSize, "archive size bookkeeping is wrong")
        guard withRegister else { return nil }
        // The bytes between known payloads are read; each known payload is folded in.
        var crc: UInt32 = 0
        var cursor = 0
        for payload in known {
            crc = CRC32C.update(crc, UnsafeRawBufferPointer(start: out + cursor, count: payload.offset - cursor))
            crc = CRC32C.shift(crc, byZeroBytes: payload.count) ^ payload.register
            cursor = payload.offset + payload.count
        }
        return CRC32C.update(crc, UnsafeRawBufferPointer(start: out + cursor, count: o - cursor))
    }

    /// Copies the raw bytes up to external payload `index`, then the payload (an encoding
    /// written in place writes itself); returns the payload's register if known.
    @inline(__always)
    private func copyExternal(
        _ index: Int, into out: UnsafeMutablePointer<UInt8>, at o: inout Int, from source: inout Int
    ) -> UInt32? {
        let external = externals[index]
        let run = external.position - source
        (out + o).initialize(from: bytes + source, count: run)
        o += run
        source = external.position
        if let pending = external.pending {
            let register = pending.write(into: out + o)
            o += pending.size
            return register
        }
        external.data.withUnsafeBytes { payload in
            if let base = payload.baseAddress {
                UnsafeMutableRawPointer(out + o).copyMemory(from: base, byteCount: payload.count)
            }
        }
        o += external.data.count
        return external.register
    }

    /// The bytes of a closed container's header after its tag (see ``write(into:withRegister:)``).
    @inline(__always)
    static func headerSize(tag: UInt8, count: Int, payloadLength: Int) -> Int {
        switch tag {
        case ArchiveTag.keyed:
            payloadLength < 32 ? 0 : ArchiveFormat.varintSize(UInt64(payloadLength))
        case ArchiveTag.array where count < 32:
            ArchiveFormat.varintSize(UInt64(payloadLength))
        default:
            ArchiveFormat.varintSize(UInt64(count)) + ArchiveFormat.varintSize(UInt64(payloadLength))
        }
    }

    @inline(__always)
    static func storeVarint(_ value: UInt64, at pointer: UnsafeMutablePointer<UInt8>) -> Int {
        var value = value
        var written = 0
        while value >= 0x80 {
            pointer[written] = UInt8(truncatingIfNeeded: value) | 0x80
            value >>= 7
            written += 1
        }
        pointer[written] = UInt8(truncatingIfNeeded: value)
        return written + 1
    }
}
