import Foundation

/// A few objects kept for reuse by later coding calls: the coding states of finished encodes
/// and decodes, and the encoders' name books.
///
/// The lock is an `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`, whose
/// contended path on Linux waits on a futex inside the uninstrumented library, so that
/// ThreadSanitizer sees the hand-off from the call that gives an object back to the one that
/// takes it (with `Mutex` it reported those as races whenever two calls met at the lock).
///
/// `@unchecked Sendable`: `objects` is read and written only under `lock`, and an object is
/// used by one coding call at a time: it is handed out once, and put back only when that call
/// is done with it.
final class ArchiveObjectPool<Object: AnyObject>: @unchecked Sendable {
    /// Objects kept: as many as coding calls that run at once, commonly.
    static var maximumCount: Int { 4 }

    private let lock = NSLock()
    @exclusivity(unchecked) private var objects: [Object] = []

    init() {}

    /// A kept object, if there is one; the caller's is then the only reference to it.
    func take() -> Object? {
        lock.lock()
        defer { lock.unlock() }
        return objects.popLast()
    }

    /// Keeps `object` for a later call, unless the pool is full.
    func put(_ object: Object) {
        lock.lock()
        defer { lock.unlock() }
        if objects.count < Self.maximumCount { objects.append(object) }
    }
}
