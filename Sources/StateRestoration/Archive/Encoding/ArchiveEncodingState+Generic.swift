import Foundation

extension ArchiveEncodingState {
    /// Encodes any value into the current slot of container `parent` (-1 for the root),
    /// taking the compact path for scalars, Data, Date, UUID, URL and arrays of scalars.
    func encodeGeneric<T: Encodable>(_ value: T, parent: Int, depth: Int) throws {
        switch typeCache.kind(of: T.self) {
        case .other:
            break
        case .string: return writeString(unsafeBitCast(value, to: String.self))
        case .int: return writeInt(Int64(unsafeBitCast(value, to: Int.self)))
        case .double: return writeDouble(unsafeBitCast(value, to: Double.self))
        case .bool: return writeBool(unsafeBitCast(value, to: Bool.self))
        case .uuid: return writeUUID(unsafeBitCast(value, to: UUID.self))
        case .date: return writeDate(unsafeBitCast(value, to: Date.self))
        case .int64: return writeInt(unsafeBitCast(value, to: Int64.self))
        case .int32: return writeInt(Int64(unsafeBitCast(value, to: Int32.self)))
        case .int16: return writeInt(Int64(unsafeBitCast(value, to: Int16.self)))
        case .int8: return writeInt(Int64(unsafeBitCast(value, to: Int8.self)))
        case .uint: return writeUInt(UInt64(unsafeBitCast(value, to: UInt.self)))
        case .uint64: return writeUInt(unsafeBitCast(value, to: UInt64.self))
        case .uint32: return writeUInt(UInt64(unsafeBitCast(value, to: UInt32.self)))
        case .uint16: return writeUInt(UInt64(unsafeBitCast(value, to: UInt16.self)))
        case .uint8: return writeUInt(UInt64(unsafeBitCast(value, to: UInt8.self)))
        case .float: return writeFloat(unsafeBitCast(value, to: Float.self))
        case .data: return writeData(unsafeBitCast(value, to: Data.self))
        case .url: return writeURL(unsafeBitCast(value, to: URL.self))
        case .decimal:
            // Decimal's own Codable form is a keyed container of its parts; keep it exact as text.
            return writeString(unsafeBitCast(value, to: Decimal.self).description)
        case .stringArray:
            let array = unsafeBitCast(value, to: [String].self)
            return writeTypedArray(array, elementTag: ArchiveTag.string) { state, element in
                state.writeStringPayload(element)
            }
        case .intArray:
            let array = unsafeBitCast(value, to: [Int].self)
            return writeTypedArray(array, elementTag: ArchiveTag.int) { state, element in
                state.appendVarint(ArchiveFormat.zigzag(Int64(element)))
            }
        case .int64Array:
            let array = unsafeBitCast(value, to: [Int64].self)
            return writeTypedArray(array, elementTag: ArchiveTag.int) { state, element in
                state.appendVarint(ArchiveFormat.zigzag(element))
            }
        case .int32Array:
            let array = unsafeBitCast(value, to: [Int32].self)
            return writeTypedArray(array, elementTag: ArchiveTag.int) { state, element in
                state.appendVarint(ArchiveFormat.zigzag(Int64(element)))
            }
        case .uintArray:
            let array = unsafeBitCast(value, to: [UInt].self)
            return writeTypedArray(array, elementTag: ArchiveTag.uint) { state, element in
                state.appendVarint(UInt64(element))
            }
        case .uint64Array:
            let array = unsafeBitCast(value, to: [UInt64].self)
            return writeTypedArray(array, elementTag: ArchiveTag.uint) { state, element in state.appendVarint(element) }
        case .uint32Array:
            let array = unsafeBitCast(value, to: [UInt32].self)
            return writeTypedArray(array, elementTag: ArchiveTag.uint) { state, element in
                state.appendVarint(UInt64(element))
            }
        case .doubleArray:
            let array = unsafeBitCast(value, to: [Double].self)
            return writeTypedArray(array, elementTag: ArchiveTag.float64) { state, element in
                state.writeDoublePayload(element)
            }
        case .floatArray:
            let array = unsafeBitCast(value, to: [Float].self)
            return writeTypedArray(array, elementTag: ArchiveTag.float32) { state, element in
                state.writeFloatPayload(element)
            }
        case .uuidArray:
            let array = unsafeBitCast(value, to: [UUID].self)
            return writeTypedArray(array, elementTag: ArchiveTag.uuid) { state, element in
                state.writeUUIDPayload(element)
            }
        case .dateArray:
            let array = unsafeBitCast(value, to: [Date].self)
            return writeTypedArray(array, elementTag: ArchiveTag.date) { state, element in
                state.writeDoublePayload(element.timeIntervalSinceReferenceDate)
            }
        case .pendingEncoding:
            // Once per archive: the checked cast costs nothing that matters.
            if let pending = value as? ArchivePendingEncoding { return writePending(pending) }
        case .boolArray:
            let array = unsafeBitCast(value, to: [Bool].self)
            let frame = openFrame(tag: ArchiveTag.array)
            ensure(array.count)
            for element in array {
                bytes[count] = element ? ArchiveTag.boolTrue : ArchiveTag.boolFalse
                count &+= 1
            }
            frames[frame].count = array.count
            return closeTopFrame()
        }

        let slot = count
        try value.encode(to: ArchiveValueEncoder(state: self, parentFrame: parent, slot: slot, depth: depth))
        closeFrames(above: parent)
        if count == slot {
            // The value encoded nothing (an empty type): store an empty keyed container.
            _ = openFrame(tag: ArchiveTag.keyed)
            closeTopFrame()
        }
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
        // The frame just opened, so in range.
        frames.uncheckedAddress(frame).pointee.count = array.count
        closeTopFrame()
    }
}
