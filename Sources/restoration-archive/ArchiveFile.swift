import Foundation
import StateRestoration

/// One archive file, read and decoded for inspection.
///
/// Loading is strict about what makes a file unreadable (too short for a header, a
/// wrong magic, a format version this build does not know, a body shorter than the
/// header records, a body that does not decode) and lenient about what leaves it
/// readable: a checksum mismatch, trailing bytes or nonzero flags are shown, not
/// refused, so that a rejected archive can be inspected. `validate` judges them.
struct ArchiveFile {
    /// The path as given on the command line.
    let path: String
    /// The file's size in bytes.
    let size: Int
    /// The envelope header as found.
    let header: ArchiveEnvelope.Header
    /// The decoded body.
    let archive: RestorationArchive

    /// The format versions this build reads.
    static let supportedVersions: ClosedRange<UInt16> = 1...RestorationArchive.formatVersion

    /// Reads and decodes the archive at `path` (`-` reads standard input).
    ///
    /// - Throws: ``ToolError`` with one line naming the file and what is wrong.
    static func load(_ path: String) throws(ToolError) -> ArchiveFile {
        let bytes = try read(path)
        let header: ArchiveEnvelope.Header
        do {
            header = try ArchiveEnvelope.inspectHeader(bytes)
        } catch {
            throw ToolError(
                "\(path): truncated: the file has \(count(bytes.count, "byte")); a header needs \(ArchiveEnvelope.headerSize)"
            )
        }
        guard header.magicMatches else {
            throw ToolError(
                "\(path): not a restoration archive: bad magic \(hex(header.magic)), expected \(hex(ArchiveEnvelope.magic))"
            )
        }
        guard supportedVersions.contains(header.formatVersion) else {
            throw ToolError(
                "\(path): unsupported format version \(header.formatVersion) (this tool reads "
                    + "\(supportedVersions.lowerBound)...\(supportedVersions.upperBound))")
        }
        guard let body = body(of: bytes, header: header) else {
            throw ToolError(
                "\(path): truncated: the header records a \(header.bodyLength)-byte body, "
                    + "the file has \(header.actualBodyLength) bytes after the header")
        }
        do {
            let archive = try ArchiveDecoder().decode(RestorationArchive.self, from: body)
            return ArchiveFile(path: path, size: bytes.count, header: header, archive: archive)
        } catch {
            throw ToolError("\(path): the body does not decode as a restoration archive: \(describe(error))")
        }
    }

    /// The largest file the tool reads: far beyond any restoration archive.
    static let maximumFileSize = 1 << 30

    /// The bytes of the file at `path`, or of standard input for `-`.
    ///
    /// - Throws: ``ToolError`` naming the file and why it cannot be read.
    static func read(_ path: String) throws(ToolError) -> Data {
        if path == "-" { return try readStandardInput() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ToolError("cannot read \(path): no such file")
        }
        guard !isDirectory.boolValue else { throw ToolError("cannot read \(path): is a directory") }
        // A symbolic link is read as the file it names (and that file's journal applies).
        let file = URL(fileURLWithPath: path).resolvingSymlinksInPath().path(percentEncoded: false)
        // A FIFO or a device (/dev/zero) would be read without end.
        let attributes = try? FileManager.default.attributesOfItem(atPath: file)
        guard attributes?[.type] as? FileAttributeType == .typeRegular else {
            throw ToolError("cannot read \(path): not a regular file")
        }
        if let size = attributes?[.size] as? Int, size > maximumFileSize {
            throw ToolError(
                "cannot read \(path): \(size) bytes is more than a restoration archive can be (\(maximumFileSize))")
        }
        guard FileManager.default.isReadableFile(atPath: file) else {
            throw ToolError("cannot read \(path): permission denied")
        }
        if let merged = try readThroughJournal(file) { return merged }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw ToolError("cannot read \(path): \(error.localizedDescription)")
        }
    }

    /// Standard input to its end, but no more than ``maximumFileSize`` bytes, and no further than
    /// the header when the input does not start with an archive's magic: `/dev/zero` piped in is
    /// refused at once, not read until memory runs out.
    private static func readStandardInput() throws(ToolError) -> Data {
        var data = Data()
        let input = FileHandle.standardInput
        while true {
            let wanted = data.count < ArchiveEnvelope.headerSize ? ArchiveEnvelope.headerSize - data.count : 1 << 20
            let chunk: Data?
            do {
                chunk = try input.read(upToCount: wanted)
            } catch {
                throw ToolError("cannot read standard input: \(error.localizedDescription)")
            }
            guard let chunk, !chunk.isEmpty else { return data }
            data.append(chunk)
            if data.count == ArchiveEnvelope.headerSize, !data.starts(with: ArchiveEnvelope.magic) {
                return data  // not an archive: its header says all that will be said
            }
            if data.count > maximumFileSize {
                throw ToolError(
                    "cannot read standard input: more than \(maximumFileSize) bytes, "
                        + "more than a restoration archive can be")
            }
        }
    }

    /// The archive a `FileStore` reads for `<directory>/<key>.restoration`, when a journal
    /// (`<key>.restoration-journal`) lies beside it: the file with the journal's records
    /// applied, which is what the next launch restores. `nil` when there is no journal.
    static func readThroughJournal(_ path: String) throws(ToolError) -> Data? {
        let url = URL(fileURLWithPath: path)
        let suffix = ".restoration"
        let name = url.lastPathComponent
        guard name.hasSuffix(suffix), FileManager.default.fileExists(atPath: path + "-journal"),
            let key = StoreKey(rawValue: String(name.dropLast(suffix.count)))
        else { return nil }
        let store = FileStore(directory: url.deletingLastPathComponent(), maximumArchiveSize: maximumFileSize)
        do {
            return try store.read(key)
        } catch {
            throw ToolError("cannot read \(path) with its journal: \(error)")
        }
    }

    /// The body the header records, or nil when the file holds fewer bytes; trailing
    /// bytes are left out.
    static func body(of bytes: Data, header: ArchiveEnvelope.Header) -> Data? {
        guard UInt64(header.actualBodyLength) >= header.bodyLength else { return nil }
        let start = bytes.startIndex + ArchiveEnvelope.headerSize
        return bytes.subdata(in: start..<(start + Int(header.bodyLength)))
    }
}

/// A state decoded without its type, or why it could not be.
typealias ParsedState = Result<ArchiveValue, ArchiveError>

/// Parses a self-describing value written by `ArchiveEncoder`.
func parse(_ data: Data) -> ParsedState {
    do {
        return .success(try ArchiveValue(decoding: data))
    } catch {
        return .failure(error)
    }
}

/// One line describing an error: for a `DecodingError`, its debug description (which
/// names the byte offset and coding path) rather than its multi-line dump.
func describe(_ error: any Error) -> String {
    switch error {
    case let error as ArchiveError:
        return oneLine(error.message)
    case let error as DecodingError:
        switch error {
        case .dataCorrupted(let context), .typeMismatch(_, let context), .valueNotFound(_, let context):
            return oneLine(context.debugDescription) + codingPath(context)
        case .keyNotFound(let key, let context):
            return "missing field '\(key.stringValue)'" + codingPath(context)
        @unknown default:
            return oneLine(String(describing: error))
        }
    default:
        return oneLine(String(describing: error))
    }
}

private func codingPath(_ context: DecodingError.Context) -> String {
    guard !context.codingPath.isEmpty, !context.debugDescription.contains("coding path") else { return "" }
    return
        " (coding path: \(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")))"
}

/// Bytes as space-separated upper-case hex pairs, `89 53 52`.
func hex(_ bytes: [UInt8]) -> String {
    bytes.map { byte in
        let digits = String(byte, radix: 16, uppercase: true)
        return digits.count == 1 ? "0" + digits : digits
    }.joined(separator: " ")
}

/// A 32-bit value as `0x` and eight upper-case hex digits.
func hex32(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}

/// A 16-bit value as `0x` and four upper-case hex digits.
func hex16(_ value: UInt16) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 4 - digits.count) + digits
}

/// A date in ISO 8601 with milliseconds, UTC.
func iso8601(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
}

/// A value as compact JSON.
func json(_ value: ArchiveValue) -> String {
    value.jsonString(prettyPrinted: false)
}
