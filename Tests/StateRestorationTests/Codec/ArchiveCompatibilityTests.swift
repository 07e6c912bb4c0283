import Foundation
import StateRestoration
import Testing

@Suite struct ArchiveCompatibilityTests {
    struct ProfileV1: Codable, Equatable {
        var id: UUID
        var name: String
        var legacyScore: Int
    }

    struct ProfileV2: Codable, Equatable {
        var id: UUID
        var name: String
        var nickname: String?
        var lastSeen: Date?
    }

    struct ProfileWrongType: Codable {
        var id: UUID
        var name: Int
    }

    struct ProfileNeedsMore: Codable {
        var id: UUID
        var name: String
        var required: Bool
    }

    @Test("a struct that gained optional fields decodes an old archive, the new fields nil")
    func gainedOptionalField() throws {
        let old = ProfileV1(id: UUID(), name: "Ada", legacyScore: 3)
        let decoded = try ArchiveDecoder().decode(ProfileV2.self, from: ArchiveEncoder().encode(old))
        #expect(decoded.id == old.id)
        #expect(decoded.name == old.name)
        #expect(decoded.nickname == nil)
        #expect(decoded.lastSeen == nil)
    }

    @Test("a struct that lost a field ignores it in an old archive")
    func lostField() throws {
        struct Slim: Codable, Equatable {
            var name: String
        }
        let old = ProfileV1(id: UUID(), name: "Grace", legacyScore: 99)
        let decoded = try ArchiveDecoder().decode(Slim.self, from: ArchiveEncoder().encode(old))
        #expect(decoded == Slim(name: "Grace"))
        // Ignored fields may be anything, including containers the new type never reads.
        let rich = ScreenState.sample(seed: 2, depth: 2)
        struct SlimScreen: Codable, Equatable {
            var title: String
            var children: [SlimScreen]
        }
        let slim = try ArchiveDecoder().decode(SlimScreen.self, from: ArchiveEncoder().encode(rich))
        #expect(slim.title == rich.title)
        #expect(slim.children.map(\.title) == rich.children.map(\.title))
    }

    @Test("an array of old values decodes as the new type element by element")
    func arrayOfOldValues() throws {
        let old = (0..<20).map { ProfileV1(id: UUID(), name: "n\($0)", legacyScore: $0) }
        let new = try ArchiveDecoder().decode([ProfileV2].self, from: ArchiveEncoder().encode(old))
        #expect(new.map(\.name) == old.map(\.name))
        #expect(new.map(\.id) == old.map(\.id))
        #expect(new.allSatisfy { $0.nickname == nil })
    }

    @Test("a value decoded as the wrong type throws typeMismatch with the coding path")
    func typeMismatch() throws {
        let data = try ArchiveEncoder().encode([ProfileV1(id: UUID(), name: "Ada", legacyScore: 1)])
        let error = try #require(throws: DecodingError.self) {
            try ArchiveDecoder().decode([ProfileWrongType].self, from: data)
        }
        guard case .typeMismatch(let type, let context) = error else {
            Issue.record("expected typeMismatch, got \(error)")
            return
        }
        #expect(type is Int.Type)
        #expect(context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } == ["0", "name"])
        #expect(context.debugDescription.contains("expected Int, found string"))
        #expect(context.debugDescription.contains("coding path: 0.name"))
        #expect(!context.debugDescription.contains("\n"))
    }

    @Test("a missing required field throws keyNotFound naming the key and the path")
    func missingRequiredField() throws {
        let data = try ArchiveEncoder().encode(["profile": ProfileV1(id: UUID(), name: "Ada", legacyScore: 1)])
        let error = try #require(throws: DecodingError.self) {
            try ArchiveDecoder().decode([String: ProfileNeedsMore].self, from: data)
        }
        guard case .keyNotFound(let key, let context) = error else {
            Issue.record("expected keyNotFound, got \(error)")
            return
        }
        #expect(key.stringValue == "required")
        #expect(context.codingPath.map(\.stringValue) == ["profile"])
    }

    @Test("null where a value is required throws valueNotFound")
    func nullForRequired() throws {
        let data = try ArchiveEncoder().encode([String?.none])
        #expect(throws: DecodingError.self) {
            try ArchiveDecoder().decode([String].self, from: data)
        }
    }

    @Test("a number too large for the requested width is rejected, not truncated")
    func narrowingOverflow() throws {
        let data = try ArchiveEncoder().encode(300)
        let error = try #require(throws: DecodingError.self) {
            try ArchiveDecoder().decode(Int8.self, from: data)
        }
        #expect(archiveCode(of: error) == .invalidValue)
        #expect(try ArchiveDecoder().decode(Int16.self, from: data) == 300)
        #expect(throws: DecodingError.self) {
            try ArchiveDecoder().decode(UInt.self, from: ArchiveEncoder().encode(-1))
        }
    }

    @Test("integers widen to floating point, as in JSON")
    func integersWidenToDouble() throws {
        #expect(try ArchiveDecoder().decode(Double.self, from: ArchiveEncoder().encode(42)) == 42)
        #expect(try ArchiveDecoder().decode(Double.self, from: ArchiveEncoder().encode(Float(0.5))) == 0.5)
    }
}
