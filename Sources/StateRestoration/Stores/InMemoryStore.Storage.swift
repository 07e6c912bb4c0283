import Foundation
import Synchronization

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
        let state = Mutex(State())

        /// Creates empty storage.
        ///
        /// ```swift
        /// let storage = InMemoryStore.Storage()
        /// ```
        public init() {}
    }
}
