import Foundation

/// Large output buffers, kept when the `Data` made over them is freed and handed to the next
/// encoding of about the same size.
///
/// A save of a large hierarchy makes a few outputs of hundreds of kilobytes each time (the
/// records of the nodes above the changed screen, the sealed archive) and frees the previous
/// save's. The allocator returns blocks that large to the system, so every save paid again for
/// zeroed pages on first touch and for giving them back: about a fifth of a save where one screen
/// changed. A kept buffer's pages are already in place.
///
/// At most ``maximumKept`` buffers of at most ``maximumSize`` bytes are kept, so the pool
/// holds a few megabytes at most, and only after large encodings.
enum ArchiveOutputPool {
    /// Outputs smaller than this come from the allocator as before.
    static let minimumSize = 64 * 1024

    /// Larger buffers are freed, not kept.
    static let maximumSize = 4 << 20

    /// The most buffers kept at once.
    static let maximumKept = 4

    /// A kept buffer is used for an output of at least this fraction of its size, so that a
    /// small output does not hold a large buffer.
    static let minimumFill = 2

    private static let lock = NSLock()
    nonisolated(unsafe) private static var kept: [(pointer: UnsafeMutablePointer<UInt8>, capacity: Int)] = []

    /// A buffer of at least `count` bytes, and its capacity, to give back with ``recycle(_:capacity:)``.
    static func take(_ count: Int) -> (pointer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        if count >= minimumSize && count <= maximumSize {
            lock.lock()
            // The smallest kept buffer that fits.
            var best: Int?
            for index in kept.indices where kept[index].capacity >= count && kept[index].capacity / minimumFill <= count
            {
                if best.map({ kept[index].capacity < kept[$0].capacity }) ?? true { best = index }
            }
            let found = best.map { kept.remove(at: $0) }
            lock.unlock()
            if let found { return found }
        }
        return (.allocate(capacity: count), count)
    }

    /// Keeps a buffer from ``take(_:)`` for a later output, or frees it.
    static func recycle(_ pointer: UnsafeMutablePointer<UInt8>, capacity: Int) {
        if capacity >= minimumSize && capacity <= maximumSize {
            lock.lock()
            if kept.count < maximumKept {
                kept.append((pointer, capacity))
                lock.unlock()
                return
            }
            // Full: keep the larger buffers, which cost most to make again.
            if let smallest = kept.indices.min(by: { kept[$0].capacity < kept[$1].capacity }),
                kept[smallest].capacity < capacity
            {
                let evicted = kept[smallest].pointer
                kept[smallest] = (pointer, capacity)
                lock.unlock()
                evicted.deallocate()
                return
            }
            lock.unlock()
        }
        pointer.deallocate()
    }

    /// `Data` over a buffer from ``take(_:)`` holding `count` bytes; the buffer goes back to the
    /// pool when the `Data` is freed.
    static func data(_ pointer: UnsafeMutablePointer<UInt8>, count: Int, capacity: Int) -> Data {
        Data(
            bytesNoCopy: pointer, count: count,
            deallocator: .custom { pointer, _ in
                recycle(pointer.assumingMemoryBound(to: UInt8.self), capacity: capacity)
            })
    }
}
