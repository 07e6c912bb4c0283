import Foundation
import StateRestoration
import Testing

/// A value whose container ends partway through it must be `truncated` at the value's
/// payload, even when the bytes after the container would complete it: every read of a
/// fixed-width value (a `Double`, a `Float`, a `Date`, a `UUID`) and of a string's or a
/// `Data`'s bytes stops at its own container's end, not at the end of the input.
///
/// Each archive's root is a keyed container that holds the cut container under "a" and,
/// under "b", a 100-byte string, more than any cut value lacks.
@Suite struct ArchiveContainerEndTests {
    /// A kind of value and how it is written.
    enum Kind: String, CaseIterable, Sendable {
        case double, float, date, uuid, shortString, longString, data

        /// The tag, and the length for a string or data: the bytes before the payload.
        var head: [UInt8] {
            switch self {
            case .double: [Bytes.float64]
            case .float: [Bytes.float32]
            case .date: [Bytes.date]
            case .uuid: [Bytes.uuid]
            case .shortString: [Bytes.fixString | 20]
            case .longString: [Bytes.string, 70]
            case .data: [Bytes.data, 20]
            }
        }

        /// The element tag of a typed array of such values.
        var elementTag: UInt8 {
            switch self {
            case .double: Bytes.float64
            case .float: Bytes.float32
            case .date: Bytes.date
            case .uuid: Bytes.uuid
            case .shortString, .longString: Bytes.string
            case .data: Bytes.data
            }
        }

        /// What precedes an element's payload in a typed array: its length, if it has one.
        var elementHead: [UInt8] {
            switch self {
            case .double, .float, .date, .uuid: []
            case .shortString: [20]
            case .longString: [70]
            case .data: [20]
            }
        }

        /// The payload's full width in bytes.
        var width: Int {
            switch self {
            case .double, .date: 8
            case .float: 4
            case .uuid: 16
            case .shortString, .data: 20
            case .longString: 70
            }
        }

        /// A payload byte: ASCII, so that a cut string is valid UTF-8 up to its cut.
        static let payloadByte: UInt8 = 0x41
    }

    /// One kind of value, cut after `kept` bytes of its payload.
    struct Cut: Sendable, CustomTestStringConvertible {
        var kind: Kind
        var kept: Int

        var testDescription: String { "\(kind.rawValue), \(kept) of \(kind.width) bytes" }

        static let all: [Cut] = Kind.allCases.flatMap { kind in
            Set([0, 1, kind.width - 1]).sorted().map { Cut(kind: kind, kept: $0) }
        }
    }

    /// The root: `{a: container, b: "zzz…"}`.
    struct Outer<A: Decodable>: Decodable {
        var a: A
        var b: String
    }

    private enum Key: String, CodingKey { case a }

    /// A keyed container read through the generic `decode(_:forKey:)`.
    struct Keyed<T: Decodable>: Decodable {
        var a: T

        init(from decoder: any Decoder) throws {
            a = try decoder.container(keyedBy: Key.self).decode(T.self, forKey: .a)
        }
    }

    /// A keyed container read through the concrete requirement for `T` where there is one
    /// (the value read is not kept).
    struct KeyedConcrete<T: Decodable>: Decodable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            switch T.self {
            case is Double.Type: _ = try container.decode(Double.self, forKey: .a)
            case is Float.Type: _ = try container.decode(Float.self, forKey: .a)
            case is String.Type: _ = try container.decode(String.self, forKey: .a)
            default: _ = try container.decode(T.self, forKey: .a)
            }
        }
    }

    /// An unkeyed container read element by element through the generic `decode(_:)`.
    struct Unkeyed<T: Decodable>: Decodable {
        var elements: [T] = []

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            while !container.isAtEnd { elements.append(try container.decode(T.self)) }
        }
    }

    /// An unkeyed container read through the concrete requirement for `T` where there is one
    /// (the values read are not kept).
    struct UnkeyedConcrete<T: Decodable>: Decodable {
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            while !container.isAtEnd {
                switch T.self {
                case is Double.Type: _ = try container.decode(Double.self)
                case is Float.Type: _ = try container.decode(Float.self)
                case is String.Type: _ = try container.decode(String.self)
                default: _ = try container.decode(T.self)
                }
            }
        }
    }

    /// A value read by a type of its own through its decoder's single-value container, as
    /// `Double(from:)` reads a `Double`. Such a decoder has no end of its own: only the check of
    /// the value's extent when its container was opened keeps its read within the container.
    struct OwnType<T: Decodable>: Decodable {
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            switch T.self {
            case is Double.Type: _ = try container.decode(Double.self)
            case is Float.Type: _ = try container.decode(Float.self)
            case is String.Type: _ = try container.decode(String.self)
            default: _ = try container.decode(T.self)
            }
        }
    }

    /// A keyed container whose value under "a" is read as ``OwnType`` through `superDecoder(forKey:)`.
    struct KeyedSuper<T: Decodable>: Decodable {
        init(from decoder: any Decoder) throws {
            _ = try OwnType<T>(from: try decoder.container(keyedBy: Key.self).superDecoder(forKey: .a))
        }
    }

    /// An unkeyed container whose elements are read as ``OwnType`` through `superDecoder()`.
    struct UnkeyedSuper<T: Decodable>: Decodable {
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            while !container.isAtEnd { _ = try OwnType<T>(from: try container.superDecoder()) }
        }
    }

    /// The archive `{a: container, b: 100-byte string}` and the offset in it of the byte at
    /// `offset` in `container`.
    private func enclosing(_ container: [UInt8], offset: Int) -> (data: Data, offset: Int) {
        let filler = Bytes.string(String(repeating: "z", count: 100))
        let entries = [0] + container + [1] + filler
        let root = [Bytes.keyed] + Bytes.varint(UInt64(entries.count)) + entries
        let data = Bytes.archive(names: ["a", "b"], root: root)
        let containerStart = data.count - root.count + 1 + Bytes.varint(UInt64(entries.count)).count + 1
        return (data, containerStart + offset)
    }

    /// The cut value's head and kept payload bytes.
    private func cutValue(_ cut: Cut) -> [UInt8] {
        cut.kind.head + Array(repeating: Kind.payloadByte, count: cut.kept)
    }

    /// `{a: <cut value>}` as a keyed container, and the payload's offset in the archive.
    private func keyedArchive(_ cut: Cut) -> (data: Data, offset: Int) {
        let entry = [0] + cutValue(cut)
        let head =
            entry.count < 32
            ? [Bytes.smallKeyed | UInt8(entry.count)] : [Bytes.keyed] + Bytes.varint(UInt64(entry.count))
        return enclosing(head + entry, offset: head.count + 1 + cut.kind.head.count)
    }

    /// `[<cut value>]` as an array of tagged values, and the payload's offset in the archive.
    private func arrayArchive(_ cut: Cut) -> (data: Data, offset: Int) {
        let element = cutValue(cut)
        let head = [Bytes.smallArray | 1] + Bytes.varint(UInt64(element.count))
        return enclosing(head + element, offset: head.count + cut.kind.head.count)
    }

    /// A typed array of two values, the second cut, and its payload's offset in the archive.
    ///
    /// An array of fixed-width values is refused before any is read, as declaring more elements
    /// than its bytes can hold (`countExceedsInput` at its count), so the cut of such an array
    /// is checked in ``fixedWidthTypedArrayCut(cut:)``; here only a string's or data's is.
    private func typedArchive(_ cut: Cut) -> (data: Data, offset: Int) {
        let kind = cut.kind
        let whole = kind.elementHead + Array(repeating: Kind.payloadByte, count: kind.width)
        let content =
            [kind.elementTag] + whole + kind.elementHead
            + Array(repeating: Kind.payloadByte, count: cut.kept)
        let head = [Bytes.typedArray, 2] + Bytes.varint(UInt64(content.count))
        return enclosing(head + content, offset: head.count + 1 + whole.count + kind.elementHead.count)
    }

    /// The forms of container to cut `kind` in: a typed array of fixed-width values is
    /// refused for its count instead (``fixedWidthTypedArrayCut(cut:)``).
    private func unkeyedForms(_ cut: Cut) -> [(String, (data: Data, offset: Int))] {
        let forms = [("array", arrayArchive(cut))]
        return cut.kind.elementHead.isEmpty ? forms : forms + [("typed array", typedArchive(cut))]
    }

    /// Expects `decode` to throw `truncated` at `offset`, directly or under a `DecodingError`.
    private func expectTruncated(
        at offset: Int, _ what: String, sourceLocation: SourceLocation = #_sourceLocation, _ decode: () throws -> Void
    ) {
        do {
            try decode()
            Issue.record("\(what): decoded", sourceLocation: sourceLocation)
        } catch {
            let archiveError = archiveError(of: error)
            #expect(archiveError?.code == .truncated, "\(what): \(error)", sourceLocation: sourceLocation)
            #expect(archiveError?.offset == offset, "\(what): \(error)", sourceLocation: sourceLocation)
            #expect(
                debugDescription(of: error).contains("truncated at byte \(offset):"), "\(what): \(error)",
                sourceLocation: sourceLocation)
        }
    }

    /// Expects every reader of each container form to stop at the cut value's payload.
    private func check<T: Decodable>(_ type: T.Type, _ cut: Cut) {
        let keyed = keyedArchive(cut)
        expectTruncated(at: keyed.offset, "ArchiveValue, keyed") { _ = try ArchiveValue(decoding: keyed.data) }
        expectTruncated(at: keyed.offset, "generic keyed") {
            _ = try ArchiveDecoder().decode(Outer<Keyed<T>>.self, from: keyed.data)
        }
        expectTruncated(at: keyed.offset, "concrete keyed") {
            _ = try ArchiveDecoder().decode(Outer<KeyedConcrete<T>>.self, from: keyed.data)
        }
        expectTruncated(at: keyed.offset, "own type, keyed") {
            _ = try ArchiveDecoder().decode(Outer<Keyed<OwnType<T>>>.self, from: keyed.data)
        }
        expectTruncated(at: keyed.offset, "own type, keyed super decoder") {
            _ = try ArchiveDecoder().decode(Outer<KeyedSuper<T>>.self, from: keyed.data)
        }
        for (form, archive) in unkeyedForms(cut) {
            expectTruncated(at: archive.offset, "ArchiveValue, \(form)") {
                _ = try ArchiveValue(decoding: archive.data)
            }
            expectTruncated(at: archive.offset, "[T], \(form)") {
                _ = try ArchiveDecoder().decode(Outer<[T]>.self, from: archive.data)
            }
            expectTruncated(at: archive.offset, "generic unkeyed, \(form)") {
                _ = try ArchiveDecoder().decode(Outer<Unkeyed<T>>.self, from: archive.data)
            }
            expectTruncated(at: archive.offset, "concrete unkeyed, \(form)") {
                _ = try ArchiveDecoder().decode(Outer<UnkeyedConcrete<T>>.self, from: archive.data)
            }
            expectTruncated(at: archive.offset, "own type, \(form)") {
                _ = try ArchiveDecoder().decode(Outer<Unkeyed<OwnType<T>>>.self, from: archive.data)
            }
            expectTruncated(at: archive.offset, "own type, super decoder, \(form)") {
                _ = try ArchiveDecoder().decode(Outer<UnkeyedSuper<T>>.self, from: archive.data)
            }
        }
    }

    @Test(
        "a value its container ends partway through is truncated at its payload, whatever follows", arguments: Cut.all)
    func valueCutByItsContainer(cut: Cut) {
        switch cut.kind {
        case .double: check(Double.self, cut)
        case .float:
            check(Float.self, cut)
            check(Double.self, cut)
        case .date: check(Date.self, cut)
        case .uuid: check(UUID.self, cut)
        case .shortString, .longString:
            check(String.self, cut)
            check(URL.self, cut)
        case .data: check(Data.self, cut)
        }
    }

    @Test(
        "a typed array whose last fixed-width value is cut declares more elements than it holds",
        arguments: Cut.all.filter { $0.kind.elementHead.isEmpty })
    func fixedWidthTypedArrayCut(cut: Cut) {
        let archive = typedArchive(cut)
        // The count, 2, is the byte after the typed array's tag.
        let countOffset =
            archive.offset - (1 + cut.kind.width + 1 + Bytes.varint(UInt64(cut.kind.width + cut.kept + 1)).count)
        func expectCountExceedsInput(_ what: String, _ decode: () throws -> Void) {
            do {
                try decode()
                Issue.record("\(what): decoded")
            } catch {
                #expect(archiveError(of: error)?.code == .countExceedsInput, "\(what): \(error)")
                #expect(archiveError(of: error)?.offset == countOffset, "\(what): \(error)")
            }
        }
        expectCountExceedsInput("ArchiveValue") { _ = try ArchiveValue(decoding: archive.data) }
        switch cut.kind {
        case .double:
            expectCountExceedsInput("[Double]") {
                _ = try ArchiveDecoder().decode(Outer<[Double]>.self, from: archive.data)
            }
        case .float:
            expectCountExceedsInput("[Float]") {
                _ = try ArchiveDecoder().decode(Outer<[Float]>.self, from: archive.data)
            }
        case .date:
            expectCountExceedsInput("[Date]") {
                _ = try ArchiveDecoder().decode(Outer<[Date]>.self, from: archive.data)
            }
        default:
            expectCountExceedsInput("[UUID]") {
                _ = try ArchiveDecoder().decode(Outer<[UUID]>.self, from: archive.data)
            }
        }
    }

    @Test("the archives are well formed once the cut value is whole", arguments: Kind.allCases)
    func wholeValuesDecode(kind: Kind) throws {
        // The same archives with every payload whole decode: what fails above is the cut alone.
        let whole = Cut(kind: kind, kept: kind.width)
        for archive in [keyedArchive(whole), arrayArchive(whole), typedArchive(whole)] {
            _ = try ArchiveValue(decoding: archive.data)
        }
        switch kind {
        case .double: try decodeWhole(Double.self, whole)
        case .float:
            try decodeWhole(Float.self, whole)
            try decodeWhole(Double.self, whole)
        case .date: try decodeWhole(Date.self, whole)
        case .uuid: try decodeWhole(UUID.self, whole)
        case .shortString, .longString:
            try decodeWhole(String.self, whole)
            try decodeWhole(URL.self, whole)
        case .data: try decodeWhole(Data.self, whole)
        }
    }

    private func decodeWhole<T: Decodable>(_ type: T.Type, _ cut: Cut) throws {
        _ = try ArchiveDecoder().decode(Outer<Keyed<T>>.self, from: keyedArchive(cut).data)
        _ = try ArchiveDecoder().decode(Outer<KeyedConcrete<T>>.self, from: keyedArchive(cut).data)
        _ = try ArchiveDecoder().decode(Outer<Keyed<OwnType<T>>>.self, from: keyedArchive(cut).data)
        _ = try ArchiveDecoder().decode(Outer<KeyedSuper<T>>.self, from: keyedArchive(cut).data)
        for archive in [arrayArchive(cut), typedArchive(cut)] {
            #expect(try ArchiveDecoder().decode(Outer<[T]>.self, from: archive.data).a.count > 0)
            _ = try ArchiveDecoder().decode(Outer<Unkeyed<T>>.self, from: archive.data)
            _ = try ArchiveDecoder().decode(Outer<UnkeyedConcrete<T>>.self, from: archive.data)
            _ = try ArchiveDecoder().decode(Outer<Unkeyed<OwnType<T>>>.self, from: archive.data)
            _ = try ArchiveDecoder().decode(Outer<UnkeyedSuper<T>>.self, from: archive.data)
        }
    }
}
