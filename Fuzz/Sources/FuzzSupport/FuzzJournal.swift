import Foundation
import StateRestoration

/// Inputs that start with this tag are an archive file and a journal for it, as older builds of
/// `FileStore` left them: the tag, the archive file's length (`UInt32`, little-endian), its
/// bytes, then the journal's.
let journalTag: [UInt8] = Array("SRJ:".utf8)

/// The journal file's magic (`Stores/LegacyJournal.swift`).
private let journalMagic: [UInt8] = [0x89, 0x53, 0x52, 0x4A, 0x4E, 0x4C, 0x0D, 0x0A]

/// A directory of this process's own for the store's files, in memory where there is one:
/// the store flushes every write.
private let journalDirectory: URL = {
    let parent =
        FileManager.default.fileExists(atPath: "/dev/shm")
        ? URL(fileURLWithPath: "/dev/shm", isDirectory: true) : FileManager.default.temporaryDirectory
    return parent.appendingPathComponent("restoration-fuzz-\(ProcessInfo.processInfo.processIdentifier)")
}()

/// Reads an archive file through a hostile journal with a fresh `FileStore`, then writes a
/// small change through the same store and reads it back with another: the read may throw,
/// but never crash, and whatever the journal held, what the store wrote is what it reads (the
/// write replaces the archive file and removes the journal).
///
/// A mutation almost never keeps a record's CRC-32C, and the store ignores a record whose
/// checksum is wrong: the journal's header (the archive file's length and checksum, its own
/// checksum) and each record's checksum are made right first (see ``sealedJournal(_:base:)``),
/// so that what the checksums guard is fuzzed too.
func fuzzJournal(_ data: Data) {
    let bytes = [UInt8](data)
    guard bytes.count >= 8, bytes.starts(with: journalTag) else { return }
    let declared = littleEndian(bytes[4..<8])
    let baseLength = min(declared, bytes.count - 8)
    let base = Data(bytes[8..<(8 + baseLength)])
    let journal = sealedJournal(Array(bytes[(8 + baseLength)...]), base: base)

    let manager = FileManager.default
    try? manager.removeItem(at: journalDirectory)
    defer { try? manager.removeItem(at: journalDirectory) }
    do {
        try manager.createDirectory(at: journalDirectory, withIntermediateDirectories: true)
        try base.write(to: journalDirectory.appendingPathComponent("main.restoration"))
        try Data(journal).write(to: journalDirectory.appendingPathComponent("main.restoration-journal"))
    } catch {
        // Not the store's fault: the harness cannot do its work, and must not pass as if it had.
        fatalError("the journal fuzzer cannot write its files in \(journalDirectory.path): \(error)")
    }
    let store = FileStore(directory: journalDirectory)
    let read = (try? store.read(.main)) ?? nil
    // A change at the end, and one byte changed in the middle: records of both kinds.
    var next = read ?? base
    next.append(0x5A)
    if next.count > 2 { next[next.startIndex + next.count / 2] ^= 0xFF }
    guard (try? store.write(next, to: .main)) != nil else { return }
    let again = (try? FileStore(directory: journalDirectory).read(.main)) ?? nil
    guard again == next else {
        fatalError(
            "a FileStore wrote \(next.count) bytes after reading a hostile journal, "
                + "and a fresh store read back \(again.map { "\($0.count) other bytes" } ?? "nothing")")
    }
}

/// `journal` with its header matching `base` and every record's checksum right, as far as the
/// records' lengths go. A journal whose flags (bytes 10 and 11, 0 in a real one) have their top
/// bit set keeps the archive file's length and checksum it has, so that a journal left beside
/// another archive file is fuzzed too.
func sealedJournal(_ bytes: [UInt8], base: Data) -> [UInt8] {
    var journal = bytes
    guard journal.count >= 28, journal.starts(with: journalMagic) else { return journal }
    if journal[11] & 0x80 == 0 {
        store(UInt64(base.count), in: &journal, at: 12)
        store(crc32c(base), in: &journal, at: 20)
    }
    store(crc32c(journal[0..<24]), in: &journal, at: 24)
    var offset = 28
    while offset + 4 <= journal.count {
        let payload = littleEndian(journal[offset..<(offset + 4)])
        let end = offset + 4 + payload + 4
        guard payload > 0, end <= journal.count else { return journal }
        store(crc32c(journal[offset..<(end - 4)]), in: &journal, at: end - 4)
        offset = end
    }
    return journal
}

private func store<Integer: FixedWidthInteger>(_ value: Integer, in bytes: inout [UInt8], at offset: Int) {
    withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + $0.count), with: $0) }
}

/// The little-endian integer in `bytes`.
private func littleEndian(_ bytes: ArraySlice<UInt8>) -> Int {
    bytes.reversed().reduce(0) { $0 << 8 | Int($1) }
}
