import Foundation

/// The state of one decode: a private copy of the input, the field-name table, and the
/// scratch space that keyed containers use to find their entries.
///
/// Every read is bounds-checked against an explicit end offset and throws an
/// ``ArchiveError`` naming the byte offset; no input can make a read go out of bounds. (The
/// fast paths for varints and for skipping small values read a few bytes ahead into zero
/// ``padding`` after the input, then check the value's extent against its end.)
/// Containers are length-prefixed, so a keyed container is indexed by scanning its
/// entries once (skipping each value by its length, without decoding it) into a shared
/// arena; lookups then compare the requested key with the entry names, trying the entry
/// after the previous hit first, which is the right one when a type decodes its fields
/// in the order it encoded them.
///
/// Stored properties are `@exclusivity(unchecked)`: one instance is used by one
/// encode or decode call on one thread, and no method holds an `inout` access to a
/// property across a call that touches the same property, so the dynamic exclusivity
/// checks (which cost more than the work on these hot paths) can never fire.
final class ArchiveDecodingState: ArchiveKeyNaming {
    /// A private copy of the input, so that a `Decoder` that escapes its `init(from:)`
    /// can never read freed memory (a state that anything still holds is never reused, see
    /// ``recycle(_:)``).
    @exclusivity(unchecked) private(set) var bytes: UnsafeMutablePointer<UInt8>
    /// The bytes allocated at ``bytes`` for input, followed by ``padding`` more.
    @exclusivity(unchecked) private var capacity: Int

    /// Zero bytes after the input's last byte, so that the fast paths may load a few bytes
    /// past the end of the value they read and check the value's extent once afterwards,
    /// instead of first checking how many bytes remain. `readVarint` starts before `size` and
    /// stops at the first zero byte, `bytes[size]` at the latest; ``skipSimpleValue(at:end:)``
    /// loads 8 bytes after a tag at `size - 1` at the latest, so the furthest read is
    /// `bytes[size + 7]`; ``ArchiveUTF8/validate(_:count:)`` reads a string's last bytes as a
    /// whole word, at most `bytes[size + 6]`.
    static let padding = 16
    @exclusivity(unchecked) private(set) var size: Int
    @exclusivity(unchecked) private(set) var maximumDepth: Int
    @exclusivity(unchecked) private(set) var userInfo: [CodingUserInfoKey: any Sendable]

    /// The field-name table.
    @exclusivity(unchecked) var names: [String] = []
    @exclusivity(unchecked) var indexByName: [String: Int] = [:]
    /// The bytes the field-name table above was read from (its count and length varints, then
    /// the names), or empty when the table is not known good (never read, or a read of it
    /// failed). A pooled state whose next input starts with the same bytes keeps the table and
    /// its index (and its names in ``nameCache``) instead of reading them again: decodes of the
    /// same kind of value (a launch's node records, a value decoded repeatedly) share their
    /// table, and reading it cost a decode of the benchmark's medium tree 6 % of its
    /// instructions.
    @exclusivity(unchecked) var tableBytes: [UInt8] = []
    /// Tables this state read whole before the one above, the least recently used first: an
    /// input whose table has the bytes of one of them takes it back instead of reading it
    /// again. A launch decodes each screen's state from an archive of its own, and the screens
    /// of an app make a few dozen tables (a screen type's optional fields present or not, its
    /// enums in one case or another) that consecutive screens seldom share; reading them was a
    /// fifth of a launch's decoding. Bounded by ``maximumEarlierTables``,
    /// ``maximumEarlierTableBytes`` and ``maximumEarlierNames``, the least recently used going
    /// first.
    @exclusivity(unchecked) private(set) var earlierTables: [ArchiveReadTable] = []
    /// The bytes and names of ``earlierTables`` (names counted by the room their array and
    /// index have, see ``ArchiveReadTable/weight``), for their bounds.
    @exclusivity(unchecked) private var earlierTableBytes = 0
    @exclusivity(unchecked) private var earlierNames = 0
    /// Cache from a key string's raw bits to its name index (-1: not in the table); see
    /// ``nameIndex(for:)``.
    @exclusivity(unchecked) var nameCache = ArchiveNameCache()
    /// ``ArchiveTag/skipRuleTable``.
    let skipRules = ArchiveTag.skipRuleTable
    /// The stamp of this decode's name table in the key tables (``ArchiveKeyTable``), whose
    /// numbers are name indices here.
    @exclusivity(unchecked) private(set) var keyStamp = ArchiveKeyTable.newStamp()
    @exclusivity(unchecked) var typeCache = ArchiveTypeCache()
    /// Which types are arrays decoded by ``ArchiveDecodableArray``.
    @exclusivity(unchecked) var decodableArrays = ArchiveConformanceCache.copy(
        of: ArchiveSharedConformances.decodableArrays)
    /// Reusable keyed-container wrappers, kept with the state from one decode to the next;
    /// retired when a decode ends, until a later decode reuses the state (``recycle(_:)``).
    let containers = ArchiveContainerCache()
    /// Offset of the root value.
    @exclusivity(unchecked) var rootPosition = 0

    /// Keyed-container index: for a container whose index starts at `s`, `arena[s]` is
    /// the entry to try first, and `arena[s + 1 + 2i]`, `arena[s + 2 + 2i]` are entry
    /// `i`'s name index and value offset.
    @exclusivity(unchecked) var arena = ArchiveScratch<Int>(capacity: 256)
    /// `stamps[name] == serial` while scanning the container with that serial number
    /// means the name was already seen in it: a duplicate key.
    @exclusivity(unchecked) var stamps = ArchiveScratch<Int>(capacity: 1)
    @exclusivity(unchecked) var serial = 0
    /// Nested `init(from:)` calls in progress, against ``maximumDepth``.
    @exclusivity(unchecked) var nesting = 0
    /// Bytes of memory that arrays of this decode may still reserve before their elements
    /// are read: ``reservePerInputByte`` per byte of input, for all of them together.
    @exclusivity(unchecked) var reservationAllowance = 0
    /// Coding-path keys of the value being decoded.
    @exclusivity(unchecked) var path = ArchiveCodingPath()

    /// Copies `data`, then validates the preamble, reads the field-name table, and checks
    /// that the root value ends exactly at the end of the input.
    init(
        copying data: Data,
        maximumDepth: Int,
        userInfo: [CodingUserInfoKey: any Sendable]
    ) throws(ArchiveError) {
        size = 0
        capacity = Swift.max(data.count, 1)
        bytes = .allocate(capacity: capacity + Self.padding)
        self.maximumDepth = maximumDepth
        self.userInfo = userInfo
        try start(copying: data)
    }

    deinit {
        bytes.deallocate()
        decodableArrays.publish(to: ArchiveSharedConformances.decodableArrays)
    }

    /// Copies `data` and reads its preamble; see ``init(copying:maximumDepth:userInfo:)``.
    /// Only for a new state or one that ``reset()`` left ready for another input, after its
    /// containers' call ended (``recycle(_:)`` does both, then the pool hands it out).
    func start(copying data: Data) throws(ArchiveError) {
        keyStamp = ArchiveKeyTable.newStamp()
        size = data.count
        if capacity < size {
            bytes.deallocate()
            capacity = size
            bytes = .allocate(capacity: capacity + Self.padding)
        }
        data.copyBytes(to: bytes, count: size)
        (bytes + size).initialize(repeating: 0, count: Self.padding)
        let (allowance, overflow) = size.multipliedReportingOverflow(by: Self.reservePerInputByte)
        reservationAllowance = overflow ? .max : allowance
        try readPreamble()
    }

    // MARK: - Reuse

    /// The states of finished decodes, for later decodes to take up (``make(copying:maximumDepth:userInfo:)``,
    /// ``recycle(_:)``): a decode then starts without allocating its buffers and caches
    /// (filling a new state's caches was most of a small decode's 29,000 instructions).
    private static let pool = ArchiveObjectPool<ArchiveDecodingState>()
    /// A state that copied more input than this, made room for more names than
    /// ``maximumKeptNames`` (a hostile input can declare many and fail before it has them),
    /// whose container index grew past ``maximumKeptArena`` slots, or whose field-name table
    /// took more than ``maximumKeptTableBytes`` bytes, is not kept, so that pooled
    /// states stay small (their other buffers grow with the input's nesting, not its size).
    static let maximumKeptCapacity = 1 << 20
    static let maximumKeptNames = 4096
    static let maximumKeptArena = 1 << 16
    static let maximumKeptTableBytes = 1 << 16
    /// The most keys, besides a kept table's names, that ``nameCache`` keeps from one decode to
    /// the next (see ``reset()``).
    static let maximumKeptKeys = 64
    /// The bounds of ``earlierTables``: the tables, their bytes, and their names in all (by
    /// ``ArchiveReadTable/weight``: a table of 20 names weighs 24, its index's room). They keep a
    /// pooled state's earlier tables under 200 KB, and a lookup to 64 length comparisons.
    static let maximumEarlierTables = 64
    static let maximumEarlierTableBytes = 16 * 1024
    static let maximumEarlierNames = 2048

    /// A state for a decode of `data` that starts: a pooled one if there is one.
    static func make(
        copying data: Data, maximumDepth: Int, userInfo: [CodingUserInfoKey: any Sendable]
    ) throws(ArchiveError) -> ArchiveDecodingState {
        guard var state = pool.take() else {
            return try ArchiveDecodingState(copying: data, maximumDepth: maximumDepth, userInfo: userInfo)
        }
        state.maximumDepth = maximumDepth
        state.userInfo = userInfo
        do {
            try state.start(copying: data)
        } catch {
            recycle(&state)
            throw error
        }
        return state
    }

    /// Ends a decode and keeps its state, with its container wrappers, for a later one, unless
    /// something else still holds it (a decoder or container that escaped the decode), so that
    /// nothing that escaped a decode can ever read a later decode's input, or it grew past the
    /// limits above.
    static func recycle(_ state: inout ArchiveDecodingState) {
        state.containers.endCall()
        guard isKnownUniquelyReferenced(&state), state.isSmallEnoughToKeep else { return }
        state.reset()
        pool.put(state)
    }

    /// Whether every buffer is within the limits for a pooled state.
    var isSmallEnoughToKeep: Bool {
        capacity <= Self.maximumKeptCapacity && names.capacity <= Self.maximumKeptNames
            && indexByName.capacity <= 2 * Self.maximumKeptNames && stamps.capacity <= Self.maximumKeptNames
            && arena.capacity <= Self.maximumKeptArena && tableBytes.capacity <= Self.maximumKeptTableBytes
    }

    /// Forgets the decode that is over, keeping the memory of its buffers and caches, and the
    /// field-name table if it read whole (see ``tableBytes``). Only after the decode's
    /// containers' call ended (``ArchiveContainerCache/endCall()``).
    func reset() {
        size = 0
        userInfo = [:]
        if tableBytes.isEmpty {
            // A table that failed to read: let its names go, and the room made for them (a
            // hostile input's can be large, and a table read into that room later would take it
            // to the earlier tables).
            names = []
            indexByName = [:]
            nameCache.removeAll()
        } else if nameCache.entryCount > names.count + Self.maximumKeptKeys {
            // Keys that lookups added over the decodes that kept this table (a key type that
            // makes its long names anew at every use adds one each time): only the table's
            // names stay.
            nameCache.removeAll()
            cacheTableNames()
        }
        decodableArrays.publishAndKeep(to: ArchiveSharedConformances.decodableArrays)
        rootPosition = 0
        arena.truncate(to: 0)
        // `stamps` keeps its values: all are below `serial`, which only grows.
        nesting = 0
        path.removeAll()
        // Nothing holds this state, so no container of its last decode can reach the cache.
        containers.reopen()
    }

    private func readPreamble() throws(ArchiveError) {
        let magic = [ArchiveFormat.magic.0, ArchiveFormat.magic.1, ArchiveFormat.magic.2]
        for index in 0..<3 {
            guard index < size else {
                throw ArchiveError(
                    .truncated,
                    "archive truncated at byte \(index): expected the 4-byte preamble (magic 'SRv' and version), "
                        + "found \(size) bytes",
                    offset: index
                )
            }
            guard bytes[index] == magic[index] else {
                let found = (0..<Swift.min(size, 3)).map { Self.hex(bytes[$0]) }.joined(separator: " ")
                throw ArchiveError(
                    .badMagic,
                    "not an archive: bad magic at byte 0: found \(found), expected 53 52 76 ('SRv')",
                    offset: 0
                )
            }
        }
        guard size > 3 else {
            throw ArchiveError(.truncated, "archive truncated at byte 3: expected the format version byte", offset: 3)
        }
        guard bytes[3] == ArchiveFormat.version else {
            throw ArchiveError(
                .unsupportedVersion,
                "unsupported archive format version \(bytes[3]) at byte 3 (supported: \(ArchiveFormat.version))",
                offset: 3
            )
        }
        var p = ArchiveFormat.preambleSize
        let countOffset = p
        let nameCount = try readVarint(&p, end: size, "field-name count")
        let tableLength = try readLength(&p, end: size, "field-name table")
        let tableEnd = p + tableLength
        // Every name takes at least its one-byte length.
        guard nameCount <= UInt64(tableLength) else {
            throw ArchiveError(
                .countExceedsInput,
                "archive field-name count \(nameCount) at byte \(countOffset) exceeds the \(tableLength)-byte "
                    + "name table",
                offset: countOffset
            )
        }
        let tableCount = tableEnd - countOffset
        if tableCount == tableBytes.count && isTable(tableBytes, at: countOffset) {
            // The table the previous input of this state had, read and checked then.
            p = tableEnd
        } else if let earlier = earlierTables.lastIndex(where: {
            $0.bytes.count == tableCount && isTable($0.bytes, at: countOffset)
        }) {
            // A table an earlier input had, read and checked then.
            let table = earlierTables.remove(at: earlier)
            earlierTableBytes -= table.bytes.count
            earlierNames -= table.weight
            keepTable()
            tableBytes = table.bytes
            names = table.names
            indexByName = table.indexByName
            nameCache.removeAll()
            cacheTableNames()
            p = tableEnd
        } else {
            keepTable()
            try readNameTable(count: Int(nameCount), from: countOffset, at: &p, end: tableEnd)
        }
        // A stamp per name; any below `serial` (a reused state's) is as good as 0.
        while stamps.count < names.count { stamps.append(0) }
        rootPosition = p
        let rootEnd = try skipValue(at: p, end: size, implied: ArchiveTag.none)
        guard rootEnd == size else {
            throw ArchiveError(
                .lengthMismatch,
                "archive has \(size - rootEnd) trailing bytes at byte \(rootEnd) after the root value",
                offset: rootEnd
            )
        }
    }

    /// Whether the input's bytes at `offset` start with `table`'s (the caller checked that the
    /// input has that many there).
    @inline(__always)
    private func isTable(_ table: [UInt8], at offset: Int) -> Bool {
        table.withUnsafeBufferPointer { kept in
            kept.baseAddress.map { memcmp($0, bytes + offset, kept.count) == 0 } ?? false
        }
    }

    /// Moves the current table, if it read whole, to ``earlierTables``, dropping the least
    /// recently used there past their bounds; the state is left without a table.
    private func keepTable() {
        guard !tableBytes.isEmpty else { return }
        let table = ArchiveReadTable(bytes: tableBytes, names: names, indexByName: indexByName)
        earlierTables.append(table)
        earlierTableBytes += table.bytes.count
        earlierNames += table.weight
        tableBytes = []
        names = []
        indexByName = [:]
        var dropped = 0
        while earlierTables.count - dropped > Self.maximumEarlierTables
            || earlierTableBytes > Self.maximumEarlierTableBytes || earlierNames > Self.maximumEarlierNames
        {
            earlierTableBytes -= earlierTables[dropped].bytes.count
            earlierNames -= earlierTables[dropped].weight
            dropped += 1
        }
        earlierTables.removeFirst(dropped)
    }

    /// Reads the `count` names of the field-name table from `p` up to `end`, where the table
    /// ends, rejecting duplicates and invalid UTF-8; remembers the table's bytes, from `start`
    /// (its count varint), once all of it is good.
    private func readNameTable(count nameCount: Int, from start: Int, at p: inout Int, end tableEnd: Int)
        throws(ArchiveError)
    {
        let tableStart = p
        tableBytes.removeAll(keepingCapacity: true)
        names.removeAll(keepingCapacity: true)
        indexByName.removeAll(keepingCapacity: true)
        nameCache.removeAll()
        names.reserveCapacity(nameCount)
        indexByName.reserveCapacity(nameCount)
        for _ in 0..<nameCount {
            let nameOffset = p
            let name = try readStringPayload(&p, end: tableEnd, "field name")
            guard indexByName.updateValue(names.count, forKey: name) == nil else {
                throw ArchiveError(
                    .duplicateKey,
                    "duplicate field name '\(name)' at byte \(nameOffset) in the archive's name table",
                    offset: nameOffset
                )
            }
            names.append(name)
        }
        guard p == tableEnd else {
            throw ArchiveError(
                .lengthMismatch,
                "archive field-name table declares \(tableEnd - tableStart) bytes but its \(nameCount) names end at "
                    + "byte \(p), not \(tableEnd)",
                offset: p
            )
        }
        cacheTableNames()
        tableBytes.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: tableEnd - start))
    }

    /// Puts the table's names in ``nameCache``, whose keys of up to 15 bytes then find them at
    /// once (see ``nameIndex(for:)``).
    private func cacheTableNames() {
        for (index, name) in names.enumerated() {
            nameCache.insert(ArchiveNameCache.words(of: name), index: index, keepingAlive: nil)
        }
    }

    // MARK: - Errors

    static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 16 ? "0" + digits : digits
    }

    @inline(never)
    func truncated(at offset: Int, _ expected: String) -> ArchiveError {
        ArchiveError(.truncated, "archive truncated at byte \(offset): expected \(expected)", offset: offset)
    }

    @inline(never)
    func mismatch(_ expected: String, found tag: UInt8, at offset: Int) -> ArchiveError {
        if tag == ArchiveTag.null {
            return ArchiveError(
                .valueNotFound,
                "archive value at byte \(offset) is null, expected \(expected)",
                offset: offset
            )
        }
        guard ArchiveTag.isValid(tag) else {
            return invalidTag(tag, at: offset)
        }
        return ArchiveError(
            .typeMismatch,
            "archive type mismatch at byte \(offset): expected \(expected), found \(ArchiveTag.name(tag))",
            offset: offset
        )
    }

    @inline(never)
    func invalidTag(_ tag: UInt8, at offset: Int) -> ArchiveError {
        ArchiveError(.invalidTag, "archive has invalid type tag 0x\(Self.hex(tag)) at byte \(offset)", offset: offset)
    }

    @inline(never)
    func notRepresentable(_ value: String, as type: Any.Type, at offset: Int) -> ArchiveError {
        ArchiveError(
            .invalidValue,
            "archive number \(value) at byte \(offset) does not fit in \(type)",
            offset: offset
        )
    }

    /// Converts an archive error into the `DecodingError` a Codable caller expects,
    /// with the coding path appended to the message.
    @inline(never)
    func decodingError(
        _ error: ArchiveError,
        type: Any.Type,
        depth: Int,
        key: (any CodingKey)?
    ) -> DecodingError {
        var path = codingPath(depth: depth)
        if let key { path.append(key) }
        var located = error
        if !path.isEmpty {
            located.message += " (coding path: \(Self.render(path)))"
        }
        let context = DecodingError.Context(
            codingPath: path,
            debugDescription: located.message,
            underlyingError: located
        )
        switch error.code {
        case .typeMismatch: return .typeMismatch(type, context)
        case .valueNotFound: return .valueNotFound(type, context)
        default: return .dataCorrupted(context)
        }
    }

    static func render(_ path: [any CodingKey]) -> String {
        path.map { key in
            if let index = key as? ArchiveIndexKey { return String(index.index) }
            return key.stringValue
        }
        .joined(separator: ".")
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

    var userInfoForCoding: [CodingUserInfoKey: Any] {
        var result: [CodingUserInfoKey: Any] = [:]
        for (key, value) in userInfo {
            result[key] = value
        }
        return result
    }

    // MARK: - Primitive reads

    @inline(__always)
    func readTag(_ p: inout Int, end: Int, implied: UInt8) throws(ArchiveError) -> UInt8 {
        if implied != ArchiveTag.none { return implied }
        guard p < end else { throw truncated(at: p, "a type tag") }
        let tag = bytes[p]
        p &+= 1
        return tag
    }

    @inline(__always)
    func readVarint(_ p: inout Int, end: Int, _ what: @autoclosure () -> String) throws(ArchiveError) -> UInt64 {
        if p < end {
            let first = bytes[p]
            if first < 0x80 {
                p &+= 1
                return UInt64(first)
            }
            // At most 10 bytes from `p < end <= size`: inside the padding.
            var q = p
            if let value = readVarintUnbounded(&q), q <= end {
                p = q
                return value
            }
        }
        return try readVarintSlow(&p, end: end, what)
    }

    /// Reads a multi-byte varint starting before the end of the input without a bounds check
    /// per byte (it reads at most 10 bytes, which ``padding`` covers); nil (and `p` unchanged)
    /// when it overflows 64 bits, for ``readVarintSlow(_:end:_:)`` to report. The caller checks
    /// that the varint ends within its value.
    @inline(__always)
    func readVarintUnbounded(_ p: inout Int) -> UInt64? {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var q = p
        while shift < 63 {
            let byte = bytes[q]
            q &+= 1
            result |= UInt64(byte & 0x7F) &<< shift
            if byte < 0x80 {
                p = q
                return result
            }
            shift &+= 7
        }
        let last = bytes[q]
        guard last <= 1 else { return nil }
        p = q &+ 1
        return result | UInt64(last) &<< 63
    }

    @inline(never)
    func readVarintSlow(_ p: inout Int, end: Int, _ what: () -> String) throws(ArchiveError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var q = p
        while true {
            guard q < end else { throw truncated(at: q, "a varint (\(what()))") }
            let byte = bytes[q]
            q += 1
            if shift == 63 && byte > 1 {
                throw ArchiveError(
                    .invalidValue,
                    "archive varint (\(what())) at byte \(p) overflows 64 bits",
                    offset: p
                )
            }
            result |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        p = q
        return result
    }

    /// Reads a byte length and checks that that many bytes remain before `end`.
    @inline(__always)
    func readLength(_ p: inout Int, end: Int, _ what: @autoclosure () -> String) throws(ArchiveError) -> Int {
        let length = try readVarint(&p, end: end, "\(what()) length")
        guard length <= UInt64(end &- p) else {
            throw truncated(at: p, "\(length)-byte \(what()), found \(end - p) bytes")
        }
        return Int(length)
    }

    @inline(__always)
    func need(_ count: Int, _ p: Int, end: Int, _ what: @autoclosure () -> String) throws(ArchiveError) {
        guard end &- p >= count else { throw truncated(at: p, what()) }
    }

    @inline(__always)
    func loadUInt64(at p: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes + p).loadUnaligned(as: UInt64.self))
    }

    @inline(__always)
    func loadUInt32(at p: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(bytes + p).loadUnaligned(as: UInt32.self))
    }

    // MARK: - Skipping

    /// The offset just past the tagged value at `p`, found without a call when the value has a
    /// fixed size, is a varint of at most 8 bytes, or has a length (after a count) of at most 2
    /// bytes; nil otherwise, or when the value would end past `end`: ``skipValue(at:end:implied:)``
    /// then skips it (or says what is wrong).
    ///
    /// `p <= end`. It reads at most 8 bytes after the tag at `p <= size`, which ``padding``
    /// covers, and checks the value's extent against `end` once, at the end.
    @inline(__always)
    func skipSimpleValue(at p: Int, end: Int) -> Int? {
        let rule = skipRule(bytes[p])
        var q = p &+ 1
        switch rule {
        case ..<ArchiveTag.skipVarint:
            q &+= Int(rule)
        case ArchiveTag.skipVarint:
            // The first byte without its high bit ends the varint.
            let stops = ~loadUInt64(at: q) & 0x8080_8080_8080_8080
            guard stops != 0 else { return nil }
            q &+= 1 &+ stops.trailingZeroBitCount / 8
        case ArchiveTag.skipLength, ArchiveTag.skipCountAndLength:
            if rule == ArchiveTag.skipCountAndLength {
                guard bytes[q] < 0x80 else { return nil }
                q &+= 1
            }
            let low = bytes[q]
            if low < 0x80 {
                q &+= 1 &+ Int(low)
            } else {
                let high = bytes[q &+ 1]
                guard high < 0x80 else { return nil }
                q &+= 2 &+ (Int(low & 0x7F) | Int(high) &<< 7)
            }
        default:
            return nil
        }
        return q <= end ? q : nil
    }

    /// Returns the offset just past the value at `p`, checking only its extent.
    ///
    /// One table lookup tells what follows the tag (``ArchiveTag/skipRule(_:)``), rather than a
    /// branch per tag range: a decode skips every entry of every keyed container once, to index
    /// it.
    func skipValue(at p: Int, end: Int, implied: UInt8) throws(ArchiveError) -> Int {
        var q = p
        let tag = try readTag(&q, end: end, implied: implied)
        let rule = skipRule(tag)
        if rule < ArchiveTag.skipVarint {
            let fixed = Int(rule)
            guard end &- q >= fixed else { throw truncated(at: q, "\(fixed)-byte \(ArchiveTag.name(tag))") }
            return q &+ fixed
        }
        switch rule {
        case ArchiveTag.skipVarint:
            // Skip a varint: continuation bytes, then the last one.
            while q < end && bytes[q] >= 0x80 && q &- p < 11 { q &+= 1 }
            guard q < end else { throw truncated(at: q, "a varint (integer)") }
            guard q &- p < 11 else {
                throw ArchiveError(
                    .invalidValue, "archive varint (integer) at byte \(p + 1) overflows 64 bits", offset: p + 1)
            }
            return q &+ 1
        case ArchiveTag.skipCountAndLength:
            _ = try readVarint(&q, end: end, "element count")
            let length = try readLength(&q, end: end, ArchiveTag.name(tag))
            return q &+ length
        case ArchiveTag.skipLength:
            let length = try readLength(&q, end: end, ArchiveTag.name(tag))
            return q &+ length
        default:
            throw invalidTag(tag, at: p)
        }
    }

    // MARK: - Containers

    /// Reads a keyed container's header and indexes its entries into the arena,
    /// rejecting unknown name indices, duplicate keys and a wrong byte length.
    /// Returns the index's start in the arena, the entry count and the container's end.
    func openKeyed(at position: Int, implied: UInt8) throws(ArchiveError) -> (start: Int, count: Int, end: Int) {
        var p = position
        let tag = try readTag(&p, end: size, implied: implied)
        let length: Int
        if tag & 0xE0 == ArchiveTag.smallKeyed {
            length = Int(tag & 0x1F)
            try need(length, p, end: size, "\(length)-byte keyed container")
        } else {
            guard tag == ArchiveTag.keyed else { throw mismatch("a keyed container", found: tag, at: position) }
            length = try readLength(&p, end: size, "keyed container")
        }
        let end = p + length
        serial &+= 1
        let start = arena.count
        arena.append(0)
        // Each entry takes at least two bytes (a name index and a type tag), so a
        // container of L bytes adds at most L/2 entries to the arena.
        var count = 0
        while p < end {
            count &+= 1
            let nameOffset = p
            let name = try readVarint(&p, end: end, "field-name index")
            guard name < UInt64(names.count) else {
                throw ArchiveError(
                    .invalidTag,
                    "archive field-name index \(name) at byte \(nameOffset) is outside the name table "
                        + "(\(names.count) names)",
                    offset: nameOffset
                )
            }
            let nameIndex = Int(name)
            guard stamps[nameIndex] != serial else {
                throw ArchiveError(
                    .duplicateKey,
                    "archive keyed container at byte \(position) has duplicate key '\(names[nameIndex])' "
                        + "at byte \(nameOffset)",
                    offset: nameOffset
                )
            }
            stamps[nameIndex] = serial
            arena.append(nameIndex)
            arena.append(p)
            // Inline the commonest values: those of a fixed size (packed in the tag or not) and
            // short varints.
            if let next = skipSimpleValue(at: p, end: end) {
                p = next
            } else {
                p = try skipValue(at: p, end: end, implied: ArchiveTag.none)
            }
        }
        guard p == end else {
            throw ArchiveError(
                .lengthMismatch,
                "archive keyed container at byte \(position) declares \(length) bytes but its \(count) entries "
                    + "end at byte \(p), not \(end)",
                offset: p
            )
        }
        return (start, count, end)
    }

    /// Reads an array or typed array header. Returns where the elements start and end,
    /// how many there are, and the implied element tag (``ArchiveTag/none`` for an array
    /// whose elements carry their own tags).
    /// An empty array must have no element bytes; a non-empty one is checked when its
    /// last element is read.
    func openUnkeyed(
        at position: Int,
        implied: UInt8
    ) throws(ArchiveError) -> (start: Int, end: Int, count: Int, elementTag: UInt8) {
        var p = position
        let tag = try readTag(&p, end: size, implied: implied)
        let countOffset = p
        let rawCount: UInt64
        if tag & 0xE0 == ArchiveTag.smallArray {
            rawCount = UInt64(tag & 0x1F)
        } else {
            guard tag == ArchiveTag.array || tag == ArchiveTag.typedArray else {
                throw mismatch("an array", found: tag, at: position)
            }
            rawCount = try readVarint(&p, end: size, "element count")
        }
        let length = try readLength(&p, end: size, "array")
        let end = p + length
        var elementTag = ArchiveTag.none
        var minimumSize = 1
        if tag == ArchiveTag.typedArray {
            try need(1, p, end: end, "the element tag of a typed array")
            elementTag = bytes[p]
            guard ArchiveTag.isTypedElement(elementTag) else { throw invalidTag(elementTag, at: p) }
            p += 1
            minimumSize = ArchiveTag.minimumPayloadSize(elementTag)
        }
        guard rawCount <= UInt64((end - p) / minimumSize) else {
            throw ArchiveError(
                .countExceedsInput,
                "archive array at byte \(position) declares \(rawCount) elements (at byte \(countOffset)) "
                    + "but holds only \(end - p) bytes",
                offset: countOffset
            )
        }
        let count = Int(rawCount)
        guard count > 0 || p == end else {
            throw ArchiveError(
                .lengthMismatch,
                "archive array at byte \(position) has no elements but declares \(end - p) bytes of them",
                offset: p
            )
        }
        return (p, end, count, elementTag)
    }

    /// The index of `name` in the field-name table, or -1 when the archive never uses it.
    ///
    /// Probes a cache keyed by the string's two raw words first (see
    /// `ArchiveEncodingState.nameIndex(for:)` for why equal words mean equal strings). The
    /// cache starts with the archive's own names, so a key of up to 15 UTF-8 bytes (a small
    /// string, whose words are its bytes) finds its index there at once; a longer key
    /// costs one dictionary lookup per decode, then is cached too.
    @inline(__always)
    func nameIndex(for name: String) -> Int {
        let words = ArchiveNameCache.words(of: name)
        if let index = nameCache.index(for: words) { return index }
        return nameIndexSlow(for: name, words: words)
    }

    /// ``nameIndex(for:)``, for the key tables.
    @inline(__always)
    func keyNumber(forName name: String) -> Int {
        nameIndex(for: name)
    }

    @inline(never)
    func nameIndexSlow(for name: String, words: (UInt64, UInt64)) -> Int {
        let index = indexByName[name] ?? -1
        nameCache.insert(words, index: index, keepingAlive: name)
        return index
    }

    /// The value offset of the entry named `name` in the keyed container indexed at
    /// `start`, or -1. Tries the entry after the previous hit first.
    @inline(__always)
    func findEntry(start: Int, count: Int, name: String) -> Int {
        findEntry(start: start, count: count, nameIndex: nameIndex(for: name))
    }

    /// The value offset of the entry whose name has index `nameIndex` (-1: a name not in
    /// the archive) in the keyed container indexed at `start`, or -1.
    @inline(__always)
    func findEntry(start: Int, count: Int, nameIndex: Int) -> Int {
        guard nameIndex >= 0 else { return -1 }
        let cursor = arena[start]
        if cursor < count {
            let entry = start &+ 1 &+ 2 &* cursor
            if arena[entry] == nameIndex {
                arena[start] = cursor &+ 1
                return arena[entry &+ 1]
            }
        }
        return findEntrySlow(start: start, count: count, nameIndex: nameIndex)
    }

    @inline(never)
    func findEntrySlow(start: Int, count: Int, nameIndex: Int) -> Int {
        var entry = start + 1
        for index in 0..<count {
            if arena[entry] == nameIndex {
                arena[start] = index + 1
                return arena[entry + 1]
            }
            entry += 2
        }
        return -1
    }

    /// What follows `tag` in the archive: below ``ArchiveTag/skipVarint``, a payload of that
    /// many bytes; otherwise one of the `skip` rules of ``ArchiveTag``.
    @inline(__always)
    func skipRule(_ tag: UInt8) -> UInt8 {
        skipRules[Int(tag)]
    }

    /// The tag of the value at `position` without consuming it.
    @inline(__always)
    func peekTag(at position: Int, implied: UInt8) -> UInt8 {
        if implied != ArchiveTag.none { return implied }
        return position < size ? bytes[position] : ArchiveTag.none
    }
}

/// A field-name table that a decoding state read whole and checked: the bytes it was read from
/// (its count and length varints, then the names), its names, and their index by name.
struct ArchiveReadTable {
    var bytes: [UInt8]
    var names: [String]
    var indexByName: [String: Int]

    /// The names the table's memory has room for: at least its count, more if its array or
    /// index was made for more.
    var weight: Int { Swift.max(names.capacity, indexByName.capacity) }
}
