import Foundation

/// What one `ArchiveEncoder.encode(_:)` call has written: the bytes so far, the field-name
/// table and the containers. ``ArchiveEncodingState`` holds it for the containers to share.
///
/// Values are written straight into one byte buffer, in order. A container's header (its
/// element count and byte length) is not known until the container is closed, so the buffer
/// holds each container's tag followed directly by its content, and ``finish()`` splices the
/// headers in while it copies the buffer into the output.
///
/// Containers are closed in nesting order: writing to a container closes every container
/// opened inside it since, and writing to a closed container is an `EncodingError` rather
/// than a silently wrong archive.
struct ArchiveWriter {
    /// One container, open or closed.
    struct Frame {
        /// The container's tag: keyed, array or typed array.
        var tag: UInt8
        /// Offset in ``body`` just after the container's tag byte.
        var contentStart: Int
        /// Elements written so far (a keyed container's entries are not counted: the format
        /// does not store their number).
        var count = 0
        /// Keyed: the name indices below 64 its entries used, one bit each (the others are in
        /// ``ArchiveWriter/highKeys``).
        var keys: UInt64 = 0
        /// Header bytes of the closed containers inside this one, which ``body`` lacks.
        var extra = 0
        /// The payload's length, headers of nested containers included; set on close.
        var payloadLength = 0
        var isOpen = true
    }

    /// Why an entry could not be started.
    enum EntryFailure: Error {
        case closed
        case duplicateKey
    }

    /// The archive's values, without container headers.
    var body = ArchiveBuffer()
    /// The field names, in order of first use, and their indices.
    var names: [String] = []
    var nameIndices: [String: Int] = [:]
    /// Every container opened, in order; the open ones, innermost last.
    var frames: [Frame] = []
    var openFrames: [Int] = []
    /// The keyed containers' names from 64 on, as `frame << 32 | name`.
    var highKeys: Set<Int> = []
    /// Header bytes of closed top-level containers.
    var rootExtra = 0
    /// The slot of a `superEncoder()` that may still be empty, or -1.
    var pendingSlot = -1
    /// The coding-path keys of the value being encoded, one per depth.
    var path: [any CodingKey] = []

    init() {
        nameIndices.reserveCapacity(64)
    }

    mutating func writeNull() { body.append(ArchiveTag.null) }
    mutating func writeBool(_ value: Bool) { body.append(value ? ArchiveTag.boolTrue : ArchiveTag.boolFalse) }

    mutating func writeInt(_ value: Int64) {
        let zigzag = ArchiveFormat.zigzag(value)
        if zigzag < 64 {
            body.append(ArchiveTag.fixInt | UInt8(zigzag))
        } else {
            body.append(ArchiveTag.int)
            body.appendVarint(zigzag)
        }
    }

    mutating func writeUInt(_ value: UInt64) {
        body.append(ArchiveTag.uint)
        body.appendVarint(value)
    }

    /// A signed integer as a zigzag varint, an unsigned one as a varint.
    mutating func writeInteger<I: FixedWidthInteger>(_ value: I) {
        if I.isSigned {
            writeInt(Int64(truncatingIfNeeded: value))
        } else {
            writeUInt(UInt64(truncatingIfNeeded: value))
        }
    }

    mutating func writeFloat(_ value: Float) {
        body.append(ArchiveTag.float32)
        writeFloatPayload(value)
    }

    mutating func writeFloatPayload(_ value: Float) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 32, by: 8) { body.append(UInt8(truncatingIfNeeded: bits >> shift)) }
    }

    mutating func writeDouble(_ value: Double) {
        writeDecimalOrDouble(value, decimalTag: ArchiveTag.decimalDouble, fullTag: ArchiveTag.float64)
    }

    mutating func writeDate(_ value: Date) {
        writeDecimalOrDouble(
            value.timeIntervalSinceReferenceDate, decimalTag: ArchiveTag.decimalDate, fullTag: ArchiveTag.date)
    }

    /// Writes `value` as a decimal tag and mantissa when that gives back its exact bits,
    /// otherwise as `fullTag` and 8 bytes.
    private mutating func writeDecimalOrDouble(_ value: Double, decimalTag: UInt8, fullTag: UInt8) {
        if let (mantissa, scale) = ArchiveFormat.decimalForm(value) {
            body.append(decimalTag | scale)
            body.appendVarint(mantissa)
        } else {
            body.append(fullTag)
            writeDoublePayload(value)
        }
    }

    mutating func writeDoublePayload(_ value: Double) {
        let bits = value.bitPattern
        for shift in stride(from: 0, to: 64, by: 8) { body.append(UInt8(truncatingIfNeeded: bits >> shift)) }
    }

    mutating func writeString(_ value: String) {
        let length = value.utf8.count
        if length < 64 {
            body.append(ArchiveTag.fixString | UInt8(length))
        } else {
            body.append(ArchiveTag.string)
            body.appendVarint(UInt64(length))
        }
        body.append(value)
    }

    /// A string's length and bytes, as typed arrays and URLs hold them.
    mutating func writeStringPayload(_ value: String) {
        body.appendVarint(UInt64(value.utf8.count))
        body.append(value)
    }

    mutating func writeData(_ value: Data) {
        body.append(ArchiveTag.data)
        body.appendVarint(UInt64(value.count))
        body.append(value)
    }

    mutating func writeUUID(_ value: UUID) {
        body.append(ArchiveTag.uuid)
        writeUUIDPayload(value)
    }

    mutating func writeUUIDPayload(_ value: UUID) { body.append(value) }

    mutating func writeURL(_ value: URL) {
        body.append(ArchiveTag.url)
        writeStringPayload(value.absoluteString)
    }

    /// Decimal's own Codable form is a keyed container of its parts; it is written exactly, as
    /// its text.
    mutating func writeDecimal(_ value: Decimal) { writeString(value.description) }

    /// A typed array: one element tag, then each element's payload.
    private mutating func writeTypedArray<Element>(
        _ array: [Element], elementTag: UInt8, _ writePayload: (inout ArchiveWriter, Element) -> Void
    ) {
        let frame = openFrame(tag: ArchiveTag.typedArray)
        body.append(elementTag)
        for element in array { writePayload(&self, element) }
        frames[frame].count = array.count
        closeTopFrame()
    }

    mutating func writeArray(_ array: [String]) {
        writeTypedArray(array, elementTag: ArchiveTag.string) { $0.writeStringPayload($1) }
    }

    mutating func writeArray<I: FixedWidthInteger>(_ array: [I]) {
        if I.isSigned {
            writeTypedArray(array, elementTag: ArchiveTag.int) {
                $0.body.appendVarint(ArchiveFormat.zigzag(Int64(truncatingIfNeeded: $1)))
            }
        } else {
            writeTypedArray(array, elementTag: ArchiveTag.uint) {
                $0.body.appendVarint(UInt64(truncatingIfNeeded: $1))
            }
        }
    }

    mutating func writeArray(_ array: [Double]) {
        writeTypedArray(array, elementTag: ArchiveTag.float64) { $0.writeDoublePayload($1) }
    }

    mutating func writeArray(_ array: [Float]) {
        writeTypedArray(array, elementTag: ArchiveTag.float32) { $0.writeFloatPayload($1) }
    }

    mutating func writeArray(_ array: [UUID]) {
        writeTypedArray(array, elementTag: ArchiveTag.uuid) { $0.writeUUIDPayload($1) }
    }

    mutating func writeArray(_ array: [Date]) {
        writeTypedArray(array, elementTag: ArchiveTag.date) { $0.writeDoublePayload($1.timeIntervalSinceReferenceDate) }
    }

    /// `[Bool]` is a plain array: a Bool's value is its tag.
    mutating func writeArray(_ array: [Bool]) {
        let frame = openFrame(tag: ArchiveTag.array)
        for element in array { writeBool(element) }
        frames[frame].count = array.count
        closeTopFrame()
    }

    /// The index of `name` in the field-name table, adding it on first use.
    mutating func nameIndex(of name: String) -> Int {
        if let known = nameIndices[name] { return known }
        names.append(name)
        nameIndices[name] = names.count - 1
        return names.count - 1
    }

    /// Writes `tag` and opens a container for it.
    mutating func openFrame(tag: UInt8) -> Int {
        body.append(tag)
        frames.append(Frame(tag: tag, contentStart: body.count))
        openFrames.append(frames.count - 1)
        return frames.count - 1
    }

    /// Closes the innermost open container, counting its header in its parent's length.
    mutating func closeTopFrame() {
        let index = openFrames.removeLast()
        let payloadLength = body.count - frames[index].contentStart + frames[index].extra
        frames[index].payloadLength = payloadLength
        frames[index].isOpen = false
        let headerSize = Self.headerSize(frames[index], payloadLength: payloadLength)
        if let parent = openFrames.last {
            frames[parent].extra += headerSize + frames[index].extra
        } else {
            rootExtra += headerSize + frames[index].extra
        }
    }

    /// The bytes of a closed container's header after its tag byte: the shortest form.
    static func headerSize(_ frame: Frame, payloadLength: Int) -> Int {
        let length = ArchiveFormat.varintSize(UInt64(payloadLength))
        switch frame.tag {
        case ArchiveTag.keyed: return payloadLength < 32 ? 0 : length
        case ArchiveTag.array where frame.count < 32: return length
        default: return ArchiveFormat.varintSize(UInt64(frame.count)) + length
        }
    }

    /// Closes every open container above `parent` (all of them when `parent` is -1).
    mutating func closeFrames(above parent: Int) {
        if pendingSlot >= 0 { settlePending() }
        while let top = openFrames.last, top != parent { closeTopFrame() }
    }

    /// Fills a `superEncoder()` slot that was never written.
    mutating func settlePending() {
        let slot = pendingSlot
        pendingSlot = -1
        fillIfEmpty(slot)
    }

    /// Writes an empty keyed container in `slot` if nothing was written there (an empty type).
    mutating func fillIfEmpty(_ slot: Int) {
        guard body.count == slot else { return }
        _ = openFrame(tag: ArchiveTag.keyed)
        closeTopFrame()
    }

    /// Makes `frame` the innermost open container; false if it was closed (or never opened).
    mutating func activate(_ frame: Int) -> Bool {
        if pendingSlot >= 0 { settlePending() }
        if openFrames.last == frame { return true }
        guard frame >= 0, frames[frame].isOpen else { return false }
        closeFrames(above: frame)
        return true
    }

    /// Starts an entry of keyed container `frame` named `name`: writes the name's index.
    mutating func beginEntry(_ frame: Int, name index: Int) throws(EntryFailure) {
        guard activate(frame) else { throw .closed }
        if index < 64 {
            let bit: UInt64 = 1 << UInt64(index)
            guard frames[frame].keys & bit == 0 else { throw .duplicateKey }
            frames[frame].keys |= bit
        } else {
            guard highKeys.insert(frame << 32 | index).inserted else { throw .duplicateKey }
        }
        body.appendVarint(UInt64(index))
    }

    /// Starts an element of unkeyed container `frame`; returns its index, or nil if it is closed.
    mutating func beginElement(_ frame: Int) -> Int? {
        guard activate(frame) else { return nil }
        frames[frame].count += 1
        return frames[frame].count - 1
    }

    /// Prepares to write the single value of `slot` in container `parent`; false if the slot
    /// holds a value already or its container was closed.
    mutating func beginSingleValue(parent: Int, slot: Int) -> Bool {
        guard slot >= 0 else { return false }
        if pendingSlot == slot {
            pendingSlot = -1
        } else if pendingSlot >= 0 {
            settlePending()
        }
        guard parent < 0 || frames[parent].isOpen else { return false }
        closeFrames(above: parent)
        return body.count == slot
    }

    /// The container an encoder of `slot` writes into: the one already open for the slot (a
    /// subclass and its superclass sharing one encoder), or a new one; -1 when the slot holds
    /// another kind of value.
    mutating func frame(forSlot slot: Int, parent: Int, tag: UInt8) -> Int {
        if body.count > slot, let open = openFrames.last(where: { frames[$0].contentStart == slot + 1 }) {
            guard frames[open].tag == tag else { return -1 }
            closeFrames(above: open)
            return open
        }
        guard beginSingleValue(parent: parent, slot: slot) else { return -1 }
        return openFrame(tag: tag)
    }

    /// Records `key` as the coding-path component at `depth`.
    mutating func setPath(_ key: any CodingKey, at depth: Int) {
        while path.count < depth { path.append(ArchiveIndexKey(-1)) }
        if depth < path.count { path[depth] = key } else { path.append(key) }
    }

    /// The first `depth` coding-path components.
    func codingPath(_ depth: Int) -> [any CodingKey] {
        Array(path.prefix(depth))
    }

    /// Closes every container and assembles the archive: preamble, field names, and the body
    /// with the container headers spliced in.
    mutating func finish() -> Data {
        closeFrames(above: -1)
        var table = ArchiveBuffer()
        defer { table.deallocate() }
        for name in names {
            table.appendVarint(UInt64(name.utf8.count))
            table.append(name)
        }
        var out = ArchiveBuffer(capacity: ArchiveFormat.preambleSize + 20 + table.count + body.count + rootExtra)
        for byte in ArchiveFormat.magic + [ArchiveFormat.version] { out.append(byte) }
        out.appendVarint(UInt64(names.count))
        out.appendVarint(UInt64(table.count))
        out.append(table, 0..<table.count)
        var copied = 0
        for frame in frames {
            out.append(body, copied..<frame.contentStart)
            copied = frame.contentStart
            switch frame.tag {
            case ArchiveTag.keyed where frame.payloadLength < 32:
                out.replace(at: out.count - 1, with: ArchiveTag.smallKeyed | UInt8(frame.payloadLength))
            case ArchiveTag.keyed:
                out.appendVarint(UInt64(frame.payloadLength))
            case ArchiveTag.array where frame.count < 32:
                out.replace(at: out.count - 1, with: ArchiveTag.smallArray | UInt8(frame.count))
                out.appendVarint(UInt64(frame.payloadLength))
            default:
                out.appendVarint(UInt64(frame.count))
                out.appendVarint(UInt64(frame.payloadLength))
            }
        }
        out.append(body, copied..<body.count)
        return out.takeData()
    }
}
