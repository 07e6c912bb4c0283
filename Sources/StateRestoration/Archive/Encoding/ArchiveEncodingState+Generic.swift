import Foundation

/// Metadata identities of the array types with a compact typed-array fast path.
enum ArchiveArrayTypes {
    static let strings = ObjectIdentifier([String].self)
    static let ints = ObjectIdentifier([Int].self)
    static let int64s = ObjectIdentifier([Int64].self)
    static let int32s = ObjectIdentifier([Int32].self)
    static let uints = ObjectIdentifier([UInt].self)
    static let uint64s = ObjectIdentifier([UInt64].self)
    static let uint32s = ObjectIdentifier([UInt32].self)
    static let doubles = ObjectIdentifier([Double].self)
    static let floats = ObjectIdentifier([Float].self)
    static let uuids = ObjectIdentifier([UUID].self)
    static let dates = ObjectIdentifier([Date].self)
    static let bools = ObjectIdentifier([Bool].self)
}

extension ArchiveEncodingState {
    /// Encodes any value into the current slot of container `parent` (-1 for the root),
    /// taking the compact path for scalars, Data, Date, UUID, URL and arrays of scalars.
    func encodeGeneric<T: Encodable>(_ value: T, parent: Int, depth: Int) throws {
        if T.self == String.self { return writeString(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return writeInt(Int64(unsafeBitCast(value, to: Int.self))) }
        if T.self == Double.self { return writeDouble(unsafeBitCast(value, to: Double.self)) }
        if T.self == Bool.self { return writeBool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == UUID.self { return writeUUID(unsafeBitCast(value, to: UUID.self)) }
        if T.self == Date.self { return writeDate(unsafeBitCast(value, to: Date.self)) }
        if T.self == Int64.self { return writeInt(unsafeBitCast(value, to: Int64.self)) }
        if T.self == Int32.self { return writeInt(Int64(unsafeBitCast(value, to: Int32.self))) }
        if T.self == Int16.self { return writeInt(Int64(unsafeBitCast(value, to: Int16.self))) }
        if T.self == Int8.self { return writeInt(Int64(unsafeBitCast(value, to: Int8.self))) }
        if T.self == UInt.self { return writeUInt(UInt64(unsafeBitCast(value, to: UInt.self))) }
        if T.self == UInt64.self { return writeUInt(unsafeBitCast(value, to: UInt64.self)) }
        if T.self == UInt32.self { return writeUInt(UInt64(unsafeBitCast(value, to: UInt32.self))) }
        if T.self == UInt16.self { return writeUInt(UInt64(unsafeBitCast(value, to: UInt16.self))) }
        if T.self == UInt8.self { return writeUInt(UInt64(unsafeBitCast(value, to: UInt8.self))) }
        if T.self == Float.self { return writeFloat(unsafeBitCast(value, to: Float.self)) }
        if T.self == Data.self { return writeData(unsafeBitCast(value, to: Data.self)) }
        if T.self == URL.self { return writeURL(unsafeBitCast(value, to: URL.self)) }
        if T.self == Decimal.self {
            // Decimal's own Codable form is a keyed container of its parts; keep it exact as text.
            return writeString(unsafeBitCast(value, to: Decimal.self).description)
        }
        if MemoryLayout<T>.size == MemoryLayout<[Int]>.size, encodeScalarArray(value) { return }

        let slot = count
        try value.encode(to: ArchiveValueEncoder(state: self, parentFrame: parent, slot: slot, depth: depth))
        closeFrames(above: parent)
        if count == slot {
            // The value encoded nothing (an empty type): store an empty keyed container.
            _ = openFrame(tag: ArchiveTag.keyed)
            closeTopFrame()
        }
    }

    /// Writes `[String]`, `[Int]`, `[UUID]` and other arrays of scalars as typed arrays.
    /// Returns false when `T` is not one of them.
    @inline(__always)
    func encodeScalarArray<T>(_ value: T) -> Bool {
        let type = ObjectIdentifier(T.self)
        switch type {
        case ArchiveArrayTypes.strings:
            let array = unsafeBitCast(value, to: [String].self)
            writeTypedArray(array, elementTag: ArchiveTag.string) { state, element in state.writeStringPayload(element) }
        case ArchiveArrayTypes.ints:
            let array = unsafeBitCast(value, to: [Int].self)
            writeTypedArray(array, elementTag: ArchiveTag.int) { state, element in
                state.appendVarint(ArchiveFormat.zigzag(Int64(element)))
            }
        case ArchiveArrayTypes.int64s:
            let array = unsafeBitCast(value, to: [Int64].self)
            writeTypedArray(array, elementTag: ArchiveTag.int) { state, element in
                state.appendVarint(ArchiveFormat.zigzag(element))
            }
        case ArchiveArrayTypes.int32s:
            let array = unsafeBitCast(value, to: [Int32].self)
            writeTypedArray(array, elementTag: ArchiveTag.int) { state, element in
                state.appendVarint(ArchiveFormat.zigzag(Int64(element)))
            }
        case ArchiveArrayTypes.uints:
            let array = unsafeBitCast(value, to: [UInt].self)
            writeTypedArray(array, elementTag: ArchiveTag.uint) { state, element in state.appendVarint(UInt64(element)) }
        case ArchiveArrayTypes.uint64s:
            let array = unsafeBitCast(value, to: [UInt64].self)
            writeTypedArray(array, elementTag: ArchiveTag.uint) { state, element in state.appendVarint(element) }
        case ArchiveArrayTypes.uint32s:
            let array = unsafeBitCast(value, to: [UInt32].self)
            writeTypedArray(array, elementTag: ArchiveTag.uint) { state, element in state.appendVarint(UInt64(element)) }
        case ArchiveArrayTypes.doubles:
            let array = unsafeBitCast(value, to: [Double].self)
            writeTypedArray(array, elementTag: ArchiveTag.float64) { state, element in state.writeDoublePayload(element) }
        case ArchiveArrayTypes.floats:
            let array = unsafeBitCast(value, to: [Float].self)
            writeTypedArray(array, elementTag: ArchiveTag.float32) { state, element in state.writeFloatPayload(element) }
        case ArchiveArrayTypes.uuids:
            let array = unsafeBitCast(value, to: [UUID].self)
            writeTypedArray(array, elementTag: ArchiveTag.uuid) { state, element in state.writeUUIDPayload(element) }
        case ArchiveArrayTypes.dates:
            let array = unsafeBitCast(value, to: [Date].self)
            writeTypedArray(array, elementTag: ArchiveTag.date) { state, element in
                state.writeDoublePayload(element.timeIntervalSinceReferenceDate)
            }
        case ArchiveArrayTypes.bools:
            let array = unsafeBitCast(value, to: [Bool].self)
            let frame = openFrame(tag: ArchiveTag.array)
            ensure(array.count)
            for element in array {
                bytes[count] = element ? ArchiveTag.boolTrue : ArchiveTag.boolFalse
                count &+= 1
            }
            frames[frame].count = array.count
            closeTopFrame()
        default:
            return false
        }
        return true
    }

    @inline(__always)
    func writeTypedArray<Element>(
        _ array: [Element],
        elementTag: UInt8,
        _ writeElement: (ArchiveEncodingState, Element) -> Void
    ) {
        let frame = openFrame(tag: ArchiveTag.typedArray)
        appendByte(elementTag)
        for element in array {
            writeElement(self, element)
        }
        frames[frame].count = array.count
        closeTopFrame()
    }
}
