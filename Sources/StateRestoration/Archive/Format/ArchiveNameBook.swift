import Foundation

/// The field names encodes have met, kept from one encode to the next, so that an encode finds
/// the name-table index of a key it has seen before without hashing the key's text.
///
/// An encode numbers its field names in order of first use (the archive's name table, see
/// ArchiveFormat.md). Finding whether a key was used before, by its text, was a dictionary
/// lookup for each of the 70 or so names of an encode of the benchmark's tree, and inserting
/// it another: 6 % of an encode. The book gives every name it has met a number of its own,
/// found from the key string's raw words (``ArchiveNameCache``) or, failing that, by its text;
/// an encode then maps that number to its own index with a stamp per name: the index is the
/// encode's if the stamp is the encode's ``epoch``.
///
/// Books go back to a pool when their encode is over (``take()``, ``put(_:)``). A book that
/// has met more than ``maximumKeptCount`` names (a dictionary's keys, say), or whose word cache
/// is full, is not kept, so a pooled book stays small and fast.
///
/// `@unchecked Sendable`: a book is used by one encode at a time, and moves between an encode
/// and the pool under the pool's lock.
final class ArchiveNameBook: @unchecked Sendable {
    /// The names met, by number.
    @exclusivity(unchecked) private(set) var names: [String] = []
    /// Each name's number, by text.
    @exclusivity(unchecked) private var numbers: [String: Int] = [:]
    /// Each name's number, by the raw words of a key string already seen.
    @exclusivity(unchecked) var cache = ArchiveNameCache()
    /// Per number, the encode that last used the name (its ``epoch``) and its index there.
    @exclusivity(unchecked) var stamps: [UInt32] = []
    @exclusivity(unchecked) var indices: [Int] = []
    /// The current encode's stamp; never 0, which marks a name no encode has used.
    @exclusivity(unchecked) private(set) var epoch: UInt32 = 0

    /// Books kept with more names than this are dropped rather than pooled.
    static let maximumKeptCount = 1024
    private static let pool = ArchiveObjectPool<ArchiveNameBook>()

    /// A book for an encode that starts: a pooled one if there is one, with a new epoch.
    static func take() -> ArchiveNameBook {
        let book = pool.take() ?? ArchiveNameBook()
        book.begin()
        return book
    }

    /// Gives back the book of an encode that is over. A book whose word cache is full is not
    /// kept either: every name it meets after that would be looked up by its text in every
    /// later encode (long keys made at run time, such as a dictionary's, each take an entry).
    static func put(_ book: ArchiveNameBook) {
        guard book.names.count <= maximumKeptCount, !book.cache.isFull else { return }
        pool.put(book)
    }

    /// Starts an encode: no name has its stamp.
    func begin() {
        epoch &+= 1
        if epoch == 0 {
            // Wrapped around: forget every stamp, so that none can match again.
            for index in stamps.indices { stamps[index] = 0 }
            epoch = 1
        }
    }

    /// The number of `name`, whose raw words are `words`, looked up by text; the name is
    /// added if new. The words are cached for the next lookup.
    func number(of name: String, words: (UInt64, UInt64)) -> Int {
        let candidate = names.count
        let number = ArchiveEncodingState.indexOrInsert(&numbers[name, default: -1], candidate)
        if number == candidate {
            names.append(name)
            stamps.append(0)
            indices.append(-1)
        }
        cache.insert(words, index: number, keepingAlive: name)
        return number
    }
}
