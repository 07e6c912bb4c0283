package import Foundation

/// The names of archives, rejected copies and temporary files, shared by ``FileStore`` (as file
/// names) and ``InMemoryStore`` (as the names of rejected entries).
///
/// - Archive: `<key>.restoration`
/// - Rejected copy: `<key>.rejected-<reason>-<yyyyMMdd'T'HHmmss.SSS'Z'>.restoration`, with `-2`,
///   `-3`, … after the timestamp when a copy with the same reason and millisecond exists.
/// - Temporary file: `.<key>.restoration.<process id>.<16 hex digits>.tmp`, where the key may
///   be a crash-loop marker's (``StoreKey/restorationMarker``)
///
/// Keys never start with `"."`, never contain `".rejected-"` and never end in `".restoring"`, so
/// none of these clash, and a marker is never taken for a key's archive.
package enum ArchiveNaming {
    /// The extension of archives and rejected copies.
    static let archiveSuffix = ".restoration"

    /// The extension of temporary files.
    static let temporarySuffix = ".tmp"

    /// The longest reason slug, in characters.
    package static let maximumSlugLength = 40

    /// What a file name in a store's directory is.
    package enum Entry: Equatable {
        /// The archive of a key.
        case archive(StoreKey)
        /// A rejected copy of a key's archive; `order` sorts copies oldest first.
        case rejected(StoreKey, order: RejectedOrder)
        /// A temporary file written by the process with this id.
        case temporary(processID: Int32)
        /// Anything else, which stores leave alone.
        case other
    }

    /// Sorts rejected copies: by timestamp, then by sequence number.
    package struct RejectedOrder: Comparable {
        /// The timestamp in the name, which sorts chronologically; empty if it has none.
        package var timestamp: String
        /// 1 for the first copy with that timestamp and reason, then 2, 3, ….
        package var sequence: Int

        /// Creates an order.
        package init(timestamp: String, sequence: Int) {
            self.timestamp = timestamp
            self.sequence = sequence
        }

        package static func < (lhs: RejectedOrder, rhs: RejectedOrder) -> Bool {
            (lhs.timestamp, lhs.sequence) < (rhs.timestamp, rhs.sequence)
        }
    }

    /// `<key>.restoration`.
    package static func archiveName(for key: StoreKey) -> String {
        key.rawValue + archiveSuffix
    }

    /// `<key>.rejected-<slug>-<timestamp>[-<sequence>].restoration`; no sequence suffix for 1.
    package static func rejectedName(for key: StoreKey, slug: String, timestamp: String, sequence: Int) -> String {
        let counter = sequence > 1 ? "-\(sequence)" : ""
        return key.rawValue + StoreKey.reservedMarker + slug + "-" + timestamp + counter + archiveSuffix
    }

    /// `.<key>.restoration.<process id>.<16 hex digits>.tmp`.
    package static func temporaryName(for key: StoreKey, processID: Int32, token: UInt64) -> String {
        let hex = String(token, radix: 16)
        let padded = String(repeating: "0", count: 16 - hex.count) + hex
        return "." + key.rawValue + archiveSuffix + ".\(processID)." + padded + temporarySuffix
    }

    /// A short slug for a rejection reason: lower-case letters and digits, runs of anything else
    /// turned into one `"-"`, at most 40 characters; `"unspecified"` if nothing is left.
    ///
    /// `"Checksum mismatch!"` becomes `"checksum-mismatch"`.
    package static func slug(for reason: String) -> String {
        var slug = ""
        var pendingDash = false
        for scalar in reason.unicodeScalars {
            let lowered: Unicode.Scalar? =
                switch scalar {
                case "a"..."z", "0"..."9": scalar
                case "A"..."Z": Unicode.Scalar(scalar.value + 0x20)
                default: nil
                }
            guard let lowered else {
                pendingDash = !slug.isEmpty
                continue
            }
            if slug.unicodeScalars.count + (pendingDash ? 2 : 1) > maximumSlugLength { break }
            if pendingDash {
                slug.unicodeScalars.append("-")
                pendingDash = false
            }
            slug.unicodeScalars.append(lowered)
        }
        return slug.isEmpty ? "unspecified" : slug
    }

    /// The UTC time as `yyyyMMdd'T'HHmmss.SSS'Z'`, such as `20261122T101038.250Z`.
    package static func timestamp(_ date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let (days, millisecondOfDay) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let secondOfDay = millisecondOfDay / 1000
        return pad(year, 4) + pad(month, 2) + pad(day, 2) + "T"
            + pad(secondOfDay / 3600, 2) + pad(secondOfDay / 60 % 60, 2) + pad(secondOfDay % 60, 2)
            + "." + pad(millisecondOfDay % 1000, 3) + "Z"
    }

    /// What a file name in a store's directory is.
    package static func classify(_ name: String) -> Entry {
        if name.hasPrefix(".") {
            return classifyTemporary(name)
        }
        guard name.hasSuffix(archiveSuffix) else { return .other }
        let base = String(name.dropLast(archiveSuffix.count))
        guard let marker = base.range(of: StoreKey.reservedMarker) else {
            return StoreKey(rawValue: base).map(Entry.archive) ?? .other
        }
        guard let key = StoreKey(rawValue: String(base[..<marker.lowerBound])) else { return .other }
        return .rejected(key, order: rejectedOrder(String(base[marker.upperBound...])))
    }

    // MARK: Helpers

    /// Recognizes `.<key>.restoration.<process id>.<hex>.tmp`.
    private static func classifyTemporary(_ name: String) -> Entry {
        guard name.hasSuffix(temporarySuffix) else { return .other }
        let parts = name.dropFirst().dropLast(temporarySuffix.count).split(
            separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4,
            let token = parts.last, token.count == 16, UInt64(token, radix: 16) != nil,
            let processID = Int32(parts[parts.count - 2]), processID > 0,
            "." + parts[parts.count - 3] == archiveSuffix,
            isKeyOrMarker(parts[..<(parts.count - 3)].joined(separator: "."))
        else { return .other }
        return .temporary(processID: processID)
    }

    /// Whether a temporary file's base names a key or a key's crash-loop marker, both of which
    /// the store writes.
    private static func isKeyOrMarker(_ base: String) -> Bool {
        StoreKey(rawValue: base) != nil || StoreKey.restorationMarker(named: base) != nil
    }

    /// Reads `<slug>-<timestamp>[-<sequence>]`.
    private static func rejectedOrder(_ rest: String) -> RejectedOrder {
        let parts = rest.split(separator: "-", omittingEmptySubsequences: false)
        if let last = parts.last, isTimestamp(last) {
            return RejectedOrder(timestamp: String(last), sequence: 1)
        }
        if parts.count >= 2, isTimestamp(parts[parts.count - 2]), let sequence = parts.last.flatMap({ Int($0) }) {
            return RejectedOrder(timestamp: String(parts[parts.count - 2]), sequence: sequence)
        }
        return RejectedOrder(timestamp: "", sequence: 0)
    }

    /// Whether the text has the shape `yyyyMMdd'T'HHmmss.SSS'Z'`.
    private static func isTimestamp(_ text: Substring) -> Bool {
        let shape = Array("ddddddddTdddddd.dddZ")
        let characters = Array(text)
        guard characters.count == shape.count else { return false }
        return zip(characters, shape).allSatisfy { character, expected in
            expected == "d" ? ("0"..."9").contains(character) : character == expected
        }
    }

    /// Division rounding toward negative infinity, and the matching non-negative remainder.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value / divisor
        let remainder = value % divisor
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
    /// `civil_from_days`).
    private static func civilDate(daysSinceEpoch days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The number in decimal, with leading zeros up to `width` digits.
    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
