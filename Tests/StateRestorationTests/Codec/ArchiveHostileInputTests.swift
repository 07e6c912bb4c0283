import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveHostileInputTests {
    /// A recursive type for nesting tests: an array of itself.
    struct Deep: Decodable {
        var children: [Deep]

        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            var children: [Deep] = []
            while !container.isAtEnd {
                children.append(try container.decode(Deep.self))
            }
            self.children = children
        }

        var depth: Int { 1 + (children.map(\.depth).max() ?? 0) }
    }

    struct Pair: Codable {
        var a: Int
        var b: String?
    }

    /// Decodes `data` both ways and returns the archive error codes each threw.
    private func codes(_ data: Data) -> (decoder: ArchiveError.Code?, value: ArchiveError.Code?) {
        var decoderCode: ArchiveError.Code?
        var valueCode: ArchiveError.Code?
        do {
            _ = try ArchiveDecoder().decode(ScreenState.self, from: data)
        } catch {
            decoderCode = archiveCode(of: error)
        }
        do {
            _ = try ArchiveValue(decoding: data)
        } catch {
            valueCode = error.code
        }
        return (decoderCode, valueCode)
    }

    /// Small in an archive (an empty keyed container is one byte), large in memory.
    struct Quarter: Decodable { var a, b, c, d: String? }
    struct Wide: Decodable { var a, b, c, d, e, f, g, h: Quarter? }
    struct Wider: Decodable { var a, b, c, d: Wide? }

    @Test("an array's declared count does not decide its allocation: 32 million elements of 2 KB each throw")
    func hugeDeclaredArray() throws {
        // 32 MB of input declaring 32 million elements, the most one byte each allows; reserving
        // them all would ask for tens of gigabytes and stop the process. The first is invalid.
        let count = 32 << 20
        var bytes = Data([0x53, 0x52, 0x76, 0x01, 0x00, 0x00, Bytes.array])
        bytes.append(contentsOf: Bytes.varint(UInt64(count)) + Bytes.varint(UInt64(count)))
        bytes.append(Data(repeating: 0xFF, count: count))
        #expect(MemoryLayout<Wider>.stride * count >= 64 << 30)
        let error = try #require(throws: DecodingError.self) { try ArchiveDecoder().decode([Wider].self, from: bytes) }
        #expect("\(error)".contains("0xFF") || "\(error)".contains("FF"))
    }

    @Test("empty data throws truncated")
    func emptyData() {
        let error = #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: Data()) }
        #expect(error?.code == .truncated)
        #expect(
            error?.message
                == "archive truncated at byte 0: expected the 4-byte preamble (magic 'SRv' and version), found 0 bytes")
        #expect(codes(Data()).decoder == .truncated)
    }

    @Test("a random blob and a JSON document are rejected for their magic")
    func wrongMagic() throws {
        let json = try JSONEncoder().encode(["a": 1])
        #expect(codes(json) == (.badMagic, .badMagic))
        let error = #expect(throws: ArchiveError.self) {
            try ArchiveValue(decoding: Data([0xDE, 0xAD, 0xBE, 0xEF, 0]))
        }
        #expect(error?.message.contains("bad magic at byte 0: found DE AD BE") == true)
    }

    @Test("a newer format version is rejected as unsupported")
    func unsupportedVersion() throws {
        var data = try ArchiveEncoder().encode(1)
        data[3] = 2
        #expect(codes(data) == (.unsupportedVersion, .unsupportedVersion))
    }

    @Test("every prefix of a real archive throws truncated, naming the byte")
    func everyPrefixIsTruncated() throws {
        let data = try ArchiveEncoder().encode(ScreenState.sample(seed: 3, depth: 1))
        for length in 0..<data.count {
            let prefix = data.prefix(length)
            do {
                _ = try ArchiveDecoder().decode(ScreenState.self, from: prefix)
                Issue.record("prefix of \(length) bytes decoded")
            } catch {
                #expect(archiveCode(of: error) == .truncated, "prefix \(length): \(error)")
                #expect(debugDescription(of: error).contains("truncated at byte"), "prefix \(length)")
            }
            #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: prefix) }
        }
    }

    @Test(
        "a count of 2^60 is rejected before anything is allocated",
        arguments: [Bytes.array, Bytes.typedArray])
    func hugeCount(tag: UInt8) {
        var root = [tag] + Bytes.varint(1 << 60) + Bytes.varint(2)
        root += tag == Bytes.typedArray ? [Bytes.int, 0] : [0, 0]
        let data = Bytes.archive(names: ["x"], root: root)
        let error = #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: data) }
        #expect(error?.code == .countExceedsInput)
        #expect(error?.message.contains("\(1 << 60)") == true)
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([Int].self, from: data) }
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([String: Int].self, from: data) }
    }

    @Test("a field-name count of 2^60 is rejected")
    func hugeNameCount() {
        let data = Data([0x53, 0x52, 0x76, 0x01] + Bytes.varint(1 << 60) + [1, 0, Bytes.null])
        #expect(codes(data) == (.countExceedsInput, .countExceedsInput))
    }

    @Test("lengths past the end of the input throw truncated with the expected size")
    func lengthPastEnd() {
        let string = Bytes.archive(root: [Bytes.string] + Bytes.varint(1000) + Array("abc".utf8))
        let error = #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: string) }
        #expect(error?.code == .truncated)
        #expect(error?.message.contains("expected 1000-byte string") == true)
        let decodeError = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(String.self, from: string) }
        #expect(decodeError.map(archiveCode(of:)) == .truncated)

        let container = Bytes.archive(root: [Bytes.array, 1] + Bytes.varint(500) + [Bytes.null])
        #expect(codes(container) == (.truncated, .truncated))
        let double = Bytes.archive(root: [Bytes.float64, 0, 0, 0])
        let doubleError = #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: double) }
        #expect(doubleError?.message == "archive truncated at byte 7: expected 8-byte double")
        let varint = Bytes.archive(root: [Bytes.int, 0x80, 0x80])
        #expect(codes(varint) == (.truncated, .truncated))
    }

    struct Numbers: Decodable {
        var a: [Int]
        var b: Int
    }

    @Test(
        "a varint that runs past the end of its container into the bytes after it is truncated",
        arguments: [UInt8(0x22), 0x41, 0x00, 0x7F])
    func varintPastItsContainer(next: UInt8) throws {
        // The decoder reads ahead of a container's end (the input is padded), so each case puts
        // bytes after the container that would end the varint: the read must still stop at the
        // container's end, with the varint's own error.
        func expectVarintTruncated<T: Decodable>(_ data: Data, as type: T.Type, _ what: String) {
            let valueError = #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: data) }
            #expect(valueError?.code == .truncated, "\(what)")
            #expect(valueError?.message.contains("expected a varint") == true, "\(what): \(valueError as Any)")
            let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(T.self, from: data) }
            #expect(error.map(archiveCode(of:)) == .truncated, "\(what)")
            #expect(error.map(debugDescription(of:))?.contains("expected a varint") == true, "\(what)")
        }
        // An entry's value: a keyed container of 3 bytes whose int runs on into `next`, the
        // first byte of the next element.
        let keyed = Bytes.archive(
            names: ["a"],
            root: Bytes.container(Bytes.array, count: 2, [Bytes.smallKeyed | 3, 0, Bytes.int, 0x82, next]))
        expectVarintTruncated(keyed, as: [Pair?].self, "an entry's value")

        // A field-name index, the last byte of its container, that runs on into `next`.
        let name = Bytes.archive(
            names: ["a"],
            root: Bytes.container(Bytes.array, count: 2, [Bytes.smallKeyed | 1, 0x80, next]))
        expectVarintTruncated(name, as: [Pair?].self, "a field-name index")
    }

    @Test("the last int of a typed array that runs on into the next entry is truncated")
    func typedArrayVarintPastItsEnd() throws {
        // The typed array's last varint (0x82) runs on into the next entry's name index (0x01),
        // which would end it: it must stop at the array's end.
        let typed: [UInt8] = [Bytes.typedArray, 2, 3, Bytes.int, 0x04, 0x82]
        let numbers = Bytes.archive(names: ["a", "b"], root: Bytes.keyed([(0, typed), (1, [Bytes.fixInt | 1])]))
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Numbers.self, from: numbers) }
        #expect(error.map(archiveCode(of:)) == .truncated)
        #expect(error.map(debugDescription(of:))?.contains("expected a varint") == true)
        let valueError = #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: numbers) }
        #expect(valueError?.code == .truncated)
        #expect(valueError?.message.contains("expected a varint") == true)
    }

    @Test("a varint longer than 64 bits is rejected")
    func overlongVarint() {
        let data = Bytes.archive(root: [Bytes.uint] + Array(repeating: 0xFF, count: 10) + [0x01])
        #expect(codes(data).value == .invalidValue)
    }

    @Test("nesting deeper than the limit throws depthLimitExceeded; shallower nesting decodes")
    func nestingLimit() throws {
        func nested(_ levels: Int) -> Data {
            var value = Bytes.container(Bytes.array, count: 0, [])
            for _ in 1..<levels {
                value = Bytes.container(Bytes.array, count: 1, value)
            }
            return Bytes.archive(root: value)
        }
        let shallow = nested(100)
        #expect(try ArchiveDecoder().decode(Deep.self, from: shallow).depth == 100)
        _ = try ArchiveValue(decoding: shallow)

        let deep = nested(ArchiveDecoder.defaultMaximumDepth + 10)
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Deep.self, from: deep) }
        #expect(error.map(archiveCode(of:)) == .depthLimitExceeded)
        let valueError = #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: deep) }
        #expect(valueError?.code == .depthLimitExceeded)

        var strict = ArchiveDecoder()
        strict.maximumDepth = 50
        #expect(throws: DecodingError.self) { try strict.decode(Deep.self, from: shallow) }
        #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: shallow, maximumDepth: 50) }

        // Far deeper than any stack could recurse: still a clean error.
        let abyss = nested(100_000)
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Deep.self, from: abyss) }
        #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: abyss) }
    }

    @Test("undefined type tags are rejected", arguments: [UInt8(0x0F), 0xE0, 0xFE, 0xFF])
    func wrongTag(tag: UInt8) {
        let root = Bytes.archive(root: [tag])
        #expect(codes(root) == (.invalidTag, .invalidTag))
        let element = Bytes.archive(root: Bytes.container(Bytes.array, count: 1, [tag]))
        #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: element) }
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([Int].self, from: element) }
        #expect(error.map(archiveCode(of:)) == .invalidTag)
        let typed = Bytes.archive(root: Bytes.container(Bytes.typedArray, count: 0, [tag]))
        #expect(codes(typed).value == .invalidTag)
    }

    @Test("a container tag is not a typed-array element tag")
    func containerAsTypedElement() {
        let typed = Bytes.archive(root: Bytes.container(Bytes.typedArray, count: 1, [Bytes.keyed, 0, 0]))
        #expect(codes(typed).value == .invalidTag)
    }

    @Test("a field-name index outside the name table is rejected")
    func nameIndexOutOfRange() {
        let data = Bytes.archive(names: ["a"], root: Bytes.keyed([(5, Bytes.int(1))]))
        #expect(codes(data) == (.invalidTag, .invalidTag))
    }

    @Test("duplicate keys in a keyed container are rejected")
    func duplicateKeys() {
        let data = Bytes.archive(names: ["a"], root: Bytes.keyed([(0, Bytes.int(1)), (0, Bytes.int(2))]))
        let error = #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: data) }
        #expect(error?.code == .duplicateKey)
        #expect(error?.message.contains("duplicate key 'a'") == true)
        let decodeError = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Pair.self, from: data) }
        #expect(decodeError.map(archiveCode(of:)) == .duplicateKey)
        // A nested container with a duplicate is caught when it is opened.
        let nested = Bytes.archive(
            names: ["a", "b"],
            root: Bytes.keyed([(1, Bytes.keyed([(0, Bytes.int(1)), (0, Bytes.int(1))]))])
        )
        #expect(codes(nested).value == .duplicateKey)
        let names = Bytes.archive(names: ["a", "a"], root: [Bytes.null])
        #expect(codes(names) == (.duplicateKey, .duplicateKey))
    }

    @Test("invalid UTF-8 in a string or a field name is rejected")
    func invalidUTF8() {
        let string = Bytes.archive(root: [Bytes.string, 2, 0xC3, 0x28])
        let error = #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: string) }
        #expect(error?.code == .invalidUTF8)
        #expect(error?.message == "archive string at byte 8 (2 bytes) is not valid UTF-8")
        let decodeError = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(String.self, from: string) }
        #expect(decodeError.map(archiveCode(of:)) == .invalidUTF8)
        let name = Data([0x53, 0x52, 0x76, 0x01, 1, 2, 1, 0xFF, Bytes.null])
        #expect(codes(name) == (.invalidUTF8, .invalidUTF8))
    }

    @Test("NaN or infinity where a Date is expected is rejected", arguments: [Double.nan, .infinity, -.infinity])
    func nonFiniteDate(seconds: Double) {
        let bits = withUnsafeBytes(of: seconds.bitPattern.littleEndian) { Array($0) }
        let data = Bytes.archive(root: [Bytes.date] + bits)
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(Date.self, from: data) }
        #expect(error.map(archiveCode(of:)) == .invalidValue)
        #expect(error.map(debugDescription(of:))?.contains("date at byte 7") == true)
        #expect(throws: ArchiveError.self) { try ArchiveValue(decoding: data) }
    }

    @Test("trailing bytes after the root value are rejected")
    func trailingBytes() throws {
        var data = try ArchiveEncoder().encode(Pair(a: 1, b: "x"))
        data.append(0)
        #expect(codes(data) == (.lengthMismatch, .lengthMismatch))
    }

    @Test("a container whose entries do not fill its declared length is rejected")
    func containerLengthMismatch() {
        // A keyed container has no count: its entries run to its declared length, and an
        // entry that runs past that length is truncated.
        let keyed = Bytes.archive(names: ["a"], root: [Bytes.keyed, 3, 0, Bytes.int, 0x82])
        #expect(codes(keyed).value == .truncated)
        let small = Bytes.archive(names: ["a"], root: [Bytes.smallKeyed | 3, 0, Bytes.int, 0x82])
        #expect(codes(small).value == .truncated)
        let array = Bytes.archive(root: Bytes.container(Bytes.array, count: 1, [Bytes.null, Bytes.null]))
        #expect(codes(array).value == .lengthMismatch)
        #expect(throws: DecodingError.self) { try ArchiveDecoder().decode([Int?].self, from: array) }
    }

    /// Reads a `String` through the super decoder of a key its archive lacks.
    struct MissingSuper: Decodable {
        enum Key: CodingKey { case a, parent }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            _ = try container.superDecoder(forKey: .parent).singleValueContainer().decode(String.self)
        }
    }

    @Test("the null decoder of a missing super key names the keyed container that lacks it")
    func missingSuperKeyNamesItsContainer() throws {
        // The 4-byte preamble, the name count (1), the table's length (2), the name's length (1)
        // and "a": the root keyed container is at byte 8.
        let data = try ArchiveEncoder().encode(["a": 1])
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(MissingSuper.self, from: data) }
        let archiveError = try #require(error.flatMap(archiveError(of:)))
        #expect(archiveError.code == .valueNotFound)
        #expect(archiveError.offset == 8)
        #expect((error.map(debugDescription(of:)) ?? "").contains("at byte 8 is null, expected String"))
    }

    @Test("structural errors deep in a value carry the coding path in one line")
    func errorsCarryCodingPath() throws {
        // children[0].title holds invalid UTF-8.
        var value = ScreenState.sample(seed: 1, depth: 1)
        value.children[0].title = "MARKER"
        var data = try ArchiveEncoder().encode(value)
        let marker = Array("MARKER".utf8)
        let bytes = Array(data)
        let index = try #require(
            (0...(bytes.count - marker.count)).first { Array(bytes[$0..<($0 + marker.count)]) == marker })
        data[index] = 0xFF
        let error = #expect(throws: DecodingError.self) { try ArchiveDecoder().decode(ScreenState.self, from: data) }
        let description = error.map(debugDescription(of:)) ?? ""
        #expect(description.contains("not valid UTF-8"))
        #expect(description.contains("coding path: children.0.title"))
        #expect(!description.contains("\n"))
    }
}
