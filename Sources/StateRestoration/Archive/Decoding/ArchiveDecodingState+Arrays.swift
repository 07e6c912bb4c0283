import Foundation

// Arrays of types without a dedicated encoding ([Coordinate], [Attachment], [Tab] …).
//
// `Array.init(from:)` runs unspecialized from the standard library: every element goes
// through an `any UnkeyedDecodingContainer`, and each append looks `Array<Element>`'s
// metadata up again (about 5 % of decoding the benchmark tree). This conformance does
// exactly what that initializer does (the same unkeyed container, the same calls, so
// the same errors and coding paths) with the concrete container, straight into the
// array's storage.
//
// Encoding keeps `Array.encode(to:)`: the same direct path measured slower there
// (callgrind, 3 % more instructions per encode of the benchmark tree).

/// An array whose elements are `Decodable`, decoded without `Array.init(from:)`.
protocol ArchiveDecodableArray: SendableMetatype {
    /// Decodes the array at `position`, as `init(from:)` would.
    static func archiveDecode(from state: ArchiveDecodingState, at position: Int, implied: UInt8, depth: Int) throws
        -> Self
}

extension ArchiveDecodingState {
    /// Bytes of memory the arrays of one decode may reserve, before their elements are read,
    /// per byte of input (see ``reservationAllowance``).
    static let reservePerInputByte = 16
}

extension Array: ArchiveDecodableArray where Element: Decodable {
    static func archiveDecode(from state: ArchiveDecodingState, at position: Int, implied: UInt8, depth: Int) throws
        -> [Element]
    {
        var container: ArchiveUnkeyedDecodingContainer
        do throws(ArchiveError) {
            let (start, end, count, elementTag) = try state.openUnkeyed(at: position, implied: implied)
            container = ArchiveUnkeyedDecodingContainer(
                state: state, position: start, end: end, count: count, implied: elementTag, depth: depth)
        } catch {
            throw state.decodingError(error, type: [Any].self, depth: depth, key: nil)
        }
        // `Array(unsafeUninitializedCapacity: 0)` stores its count into the shared empty-array
        // singleton, a race between threads that ThreadSanitizer reports.
        guard container.elementCount > 0 else { return [] }
        // The count is only bounded by the input (an element takes at least one byte), and an
        // element may be far larger in memory than in the archive. Reserve room for all the
        // elements at once only within the decode's allowance; past it, grow as elements are
        // read, as `Array.init(from:)` does, so a declared count alone never allocates.
        let (needed, overflow) = container.elementCount.multipliedReportingOverflow(
            by: Swift.max(MemoryLayout<Element>.stride, 1))
        guard !overflow, needed <= state.reservationAllowance else {
            var result: [Element] = []
            while !container.isAtEnd {
                result.append(try container.decode(Element.self))
            }
            return result
        }
        state.reservationAllowance -= needed
        return try [Element](unsafeUninitializedCapacity: container.elementCount) { buffer, initialized in
            // A non-empty buffer always has an address.
            guard let base = buffer.baseAddress else { return }
            while !container.isAtEnd {
                (base + initialized).initialize(to: try container.decode(Element.self))
                initialized += 1
            }
        }
    }
}

/// A cache of one conformance check per type: the type as `Value` (an existential
/// metatype), or nil when it does not conform.
///
/// A conditional conformance such as `Array: ArchiveDecodableArray where Element:
/// Decodable` costs thousands of instructions to look up, more than decoding a small
/// struct. Each decode starts from a copy of the process-wide cache in
/// ``ArchiveSharedConformances`` (copy-on-write: a retain) and publishes its copy back
/// when it learned something, so a type is looked up about once per process.
struct ArchiveConformanceCache<Value: Sendable>: Sendable {
    private var table = ArchiveTypeTable<Value?>()
    /// Whether a lookup was added since the cache was taken from the shared one.
    private(set) var isDirty = false

    @inline(__always)
    mutating func value(for type: Any.Type, _ lookUp: (Any.Type) -> Value?) -> Value? {
        if let cached = table[type] { return cached }
        let value = lookUp(type)
        table[type] = value
        isDirty = true
        return value
    }

    /// A copy of `shared`.
    static func copy(of shared: ArchiveSharedConformanceCache<Value>) -> Self {
        shared.snapshot()
    }

    /// Adds what this cache learned to `shared` (decodes running at the same time each add
    /// theirs).
    func publish(to shared: ArchiveSharedConformanceCache<Value>) {
        guard isDirty else { return }
        shared.merge(table)
    }

    /// Publishes to `shared` and goes on as a cache that has learned nothing since.
    mutating func publishAndKeep(to shared: ArchiveSharedConformanceCache<Value>) {
        publish(to: shared)
        isDirty = false
    }

    /// Adds every pair of `other`.
    fileprivate mutating func merge(_ other: ArchiveTypeTable<Value?>) {
        table.merge(other)
    }
}

/// A process-wide ``ArchiveConformanceCache``, under an `NSLock` rather than
/// `Synchronization.Mutex`, as for ``ArchiveObjectPool`` (which says why: ThreadSanitizer
/// does not see the hand-off through `Mutex`'s contended path on Linux).
///
/// `@unchecked Sendable`: `cache` is read and written only under `lock`.
final class ArchiveSharedConformanceCache<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var cache = ArchiveConformanceCache<Value>()

    /// A copy of the cache (copy-on-write: a retain).
    func snapshot() -> ArchiveConformanceCache<Value> {
        lock.lock()
        defer { lock.unlock() }
        return cache
    }

    /// Adds the pairs of `table`.
    func merge(_ table: ArchiveTypeTable<Value?>) {
        lock.lock()
        defer { lock.unlock() }
        cache.merge(table)
    }
}

/// The conformance caches every decode starts from.
enum ArchiveSharedConformances {
    static let decodableArrays = ArchiveSharedConformanceCache<any ArchiveDecodableArray.Type>()
}

extension ArchiveDecodingState {
    /// Decodes a `T`, which is the array type `A`, through ``ArchiveDecodableArray``.
    @inline(__always)
    func decodeArray<A: ArchiveDecodableArray, T>(_: A.Type, as _: T.Type, at position: Int, implied: UInt8, depth: Int)
        throws -> T
    {
        unsafeBitCast(try A.archiveDecode(from: self, at: position, implied: implied, depth: depth), to: T.self)
    }
}
