import Foundation

extension InMemoryStore {
    /// The archives and rejected copies of one or more ``InMemoryStore``s.
    ///
    /// Stores that share a storage see each other's changes at once, like processes that share a
    /// directory. Use one to simulate a relaunch: the new store shares only the storage with the
    /// old one.
    ///
    /// ```swift
    /// let storage = InMemoryStore.Storage()
    /// let first = InMemoryStore(storage: storage)
    /// let second = InMemoryStore(storage: storage)
    /// ```
    public final class Storage: Sendable {
        /// A rejected archive and its name.
        struct RejectedCopy: Sendable {
            /// The name returned by ``InMemoryStore/reject(_:reason:)``.
            var name: String
            /// The rejected bytes.
            var data: Data
        }

        /// Everything the storage holds.
        struct State: Sendable {
            /// The current archive of each key.
            var archives: [StoreKey: Data] = [:]
            /// The rejected copies of each key, oldest first.
            var rejected: [StoreKey: [RejectedCopy]] = [:]
        }

        /// The storage's contents, behind a lock because stores use them from any thread.
        let state = Locked(State())

        /// A value read and written under an `NSLock`, with `Mutex`'s `withLock`. Not
        /// `Synchronization.Mutex`: with it, writes from
        /// many threads at once made ThreadSanitizer report races on the contents, since it does
        /// not see `Mutex`'s hand-off on Linux (a test of 50 concurrent writers did).
        ///
        /// `@unchecked Sendable`: `value` is read and written only under `lock`.
        final class Locked<Value: Sendable>: @unchecked Sendable {
            private let lock = NSLock()
            private var value: Value

            init(_ value: Value) { self.value = value }

            func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
                lock.lock()
                defer { lock.unlock() }
                return try body(&value)
            }
        }

        /// Creates empty storage.
        ///
        /// ```swift
        /// let storage = InMemoryStore.Storage()
        /// ```
        public init() {}
    }
}
