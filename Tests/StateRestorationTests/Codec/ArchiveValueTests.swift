import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveValueTests {
    struct Unknown: Codable {
        var title: String
        var count: Int
        var ratio: Double
        var big: UInt64
        var enabled: Bool
        var missing: String?
        var id: UUID
        var when: Date
        var blob: Data
        var link: URL
        var tags: [String]
        var child: Child
    }

    struct Child: Codable {
        var name: String
        var values: [Int]
    }

    let sample = Unknown(
        title: "Quote \" and \\ and\nnewline",
        count: -42,
        ratio: 0.25,
        big: UInt64.max,
        enabled: true,
        missing: nil,
        id: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
        when: Date(timeIntervalSince1970: 1_700_000_000.5),
        blob: Data([0, 1, 2, 250]),
        link: URL(string: "https://example.com/a?b=c") ?? URL(fileURLWithPath: "/"),
        tags: ["x", "y"],
        child: Child(name: "kid", values: [1, 2, 3])
    )

    @Test("parses an archive without its type, fields in encoding order")
    func parsesWithoutTypes() throws {
        let value = try ArchiveValue(decoding: ArchiveEncoder().encode(sample))
        guard case .object(let fields) = value else {
            Issue.record("expected an object, got \(value)")
            return
        }
        #expect(
            fields.map(\.name) == [
                "title", "count", "ratio", "big", "enabled", "id", "when", "blob", "link", "tags", "child",
            ])
        #expect(value["count"] == .int(-42))
        #expect(value["big"] == .uint(UInt64.max))
        #expect(value["id"] == .uuid(sample.id))
        #expect(value["when"] == .date(sample.when))
        #expect(value["blob"] == .data(sample.blob))
        #expect(value["tags"] == .array([.string("x"), .string("y")]))
        #expect(value["child"]?["values"] == .array([.int(1), .int(2), .int(3)]))
    }

    @Test("renders JSON that JSONSerialization parses with the right field values", arguments: [false, true])
    func rendersJSON(prettyPrinted: Bool) throws {
        let text = try ArchiveValue(decoding: ArchiveEncoder().encode(sample)).jsonString(prettyPrinted: prettyPrinted)
        #expect(text.contains("\n") == prettyPrinted)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["title"] as? String == sample.title)
        #expect((parsed["count"] as? NSNumber)?.intValue == -42)
        #expect((parsed["ratio"] as? NSNumber)?.doubleValue == 0.25)
        #expect(parsed["enabled"] as? Bool == true)
        #expect(parsed["id"] as? String == sample.id.uuidString)
        #expect(parsed["blob"] as? String == sample.blob.base64EncodedString())
        #expect(parsed["link"] as? String == sample.link.absoluteString)
        #expect(parsed["tags"] as? [String] == sample.tags)
        let when = try #require(parsed["when"] as? String)
        let date = try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(when)
        #expect(abs(date.timeIntervalSince(sample.when)) < 0.001)
        let child = try #require(parsed["child"] as? [String: Any])
        #expect(child["name"] as? String == "kid")
        #expect((child["values"] as? [NSNumber])?.map(\.intValue) == [1, 2, 3])
        #expect(parsed["missing"] == nil)
    }

    @Test("renders the whole realistic model as parseable JSON")
    func rendersModel() throws {
        let value = try ArchiveValue(decoding: ArchiveEncoder().encode(ScreenState.sample(seed: 5, depth: 2)))
        let text = value.jsonString(prettyPrinted: true)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(parsed["restorationIdentifier"] as? String == "screen.5")
        #expect((parsed["children"] as? [Any])?.count == 2)
    }

    @Test("renders scalars, empty containers and non-finite numbers as valid JSON fragments")
    func rendersScalars() throws {
        #expect(ArchiveValue.null.jsonString(prettyPrinted: false) == "null")
        #expect(ArchiveValue.array([]).jsonString(prettyPrinted: true) == "[]")
        #expect(ArchiveValue.object([]).jsonString(prettyPrinted: true) == "{}")
        #expect(ArchiveValue.double(.nan).jsonString(prettyPrinted: false) == "\"NaN\"")
        #expect(ArchiveValue.double(-.infinity).jsonString(prettyPrinted: false) == "\"-Infinity\"")
        #expect(ArchiveValue.string("\u{01}").jsonString(prettyPrinted: false) == "\"\\u0001\"")
        let text = ArchiveValue.array([.double(1.5), .double(1e-7), .int(3)]).jsonString(prettyPrinted: false)
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [NSNumber])
        #expect(parsed.map(\.doubleValue) == [1.5, 1e-7, 3])
    }
}
