import Foundation

/// An encoding made but not yet copied out: ``ArchiveEncoder/encodePending(_:registers:)``
/// encodes a value up to where ``ArchiveEncodingState/finish()`` would copy it into a `Data`
/// of its own. An encoding by ``ArchiveEncoder`` that holds it where a `Data` would be writes
/// its bytes straight into its own output, as that `Data` (tag, length, bytes): a large
/// encoding held by another (the hierarchy's root record in the archive) is copied once
/// rather than twice. The bytes are those `encode(_:)` would have made.
///
/// Any other encoder gets the `Data` itself (``encode(to:)``).
///
/// `@unchecked Sendable`: used by one save, on one task at a time; ``written`` is set by the
/// one encoding that holds it, before anything reads it.
final class ArchivePendingEncoding: Encodable, @unchecked Sendable {
    private var state: ArchiveEncodingState
    /// The bytes of the encoding.
    let size: Int
    /// Where an enclosing encoding wrote the bytes, and their CRC-32C register.
    private(set) var written: (address: UnsafeRawPointer, register: UInt32)?

    /// Takes an encoding state whose value is encoded and whose known registers are resolved
    /// (``ArchiveEncodingState/resolveRegisters(_:)``), and closes its containers.
    init(state: ArchiveEncodingState) {
        self.state = state
        size = state.close()
    }

    /// Gives the state to its pool, with its container wrappers, once nothing needs its bytes.
    deinit {
        ArchiveEncodingState.recycle(&state)
    }

    /// Writes the bytes at `out`, which has room for ``size`` bytes, and returns their CRC-32C
    /// register (``CRC32C/register(_:)``).
    func write(into out: UnsafeMutablePointer<UInt8>) -> UInt32 {
        let register = state.write(into: out, withRegister: true) ?? 0
        written = (UnsafeRawPointer(out), register)
        return register
    }

    /// The bytes as a view of `output`, into which an enclosing encoding wrote them, and
    /// their register; nil if they were not written into `output`. Asked once, right after the
    /// enclosing encoding: the address of the write is forgotten, since once that output is
    /// freed its memory may hold another.
    func bytes(in output: Data) -> (data: Data, register: UInt32)? {
        guard let written else { return nil }
        self.written = nil
        let offset = output.withUnsafeBytes { buffer in buffer.baseAddress.map { $0.distance(to: written.address) } }
        guard let offset, offset >= 0, offset <= output.count - size else { return nil }
        let start = output.startIndex + offset
        return (output[start..<(start + size)], written.register)
    }

    /// The bytes, in a `Data` of their own.
    func data() -> Data {
        let (out, capacity) = ArchiveOutputPool.take(size)
        _ = state.write(into: out, withRegister: false)
        return ArchiveOutputPool.data(out, count: size, capacity: capacity)
    }

    /// Encodes the bytes as a `Data`; ``ArchiveEncoder`` writes them in place instead.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(data())
    }
}
