import Foundation
import StateRestoration
import Testing

/// A selection saved as model identifiers finds its rows again in changed data.
@Suite struct ModelSelectionTests {
    private let saved = ["a", "b", "c", "d", "e", "f", "g", "h"]

    /// b and e selected (in that order), d the first visible row.
    private var selection: ModelSelection<String> {
        ModelSelection(identifiers: saved, selectedPositions: [1, 4], firstVisiblePosition: 3)
    }

    @Test("building keeps identifiers, not positions: selection order, first visible, neighbours nearest first")
    func buildsFromPositions() {
        #expect(selection.selectedIdentifiers == ["b", "e"])
        #expect(selection.firstVisibleIdentifier == "d")
        #expect(selection.neighbourIdentifiers == ["e", "c", "f", "b", "g", "a"])
        let reversed = ModelSelection(identifiers: saved, selectedPositions: [4, 1])
        #expect(reversed.selectedIdentifiers == ["e", "b"])
        #expect(reversed.firstVisibleIdentifier == nil)
        #expect(reversed.neighbourIdentifiers.isEmpty)
    }

    @Test("positions outside the data are ignored, and a repeated identifier is saved once")
    func buildsFromOddPositions() {
        let odd = ModelSelection(
            identifiers: ["a", "b", "a"], selectedPositions: [2, -1, 0, 7, 1], firstVisiblePosition: 9)
        #expect(odd.selectedIdentifiers == ["a", "b"])
        #expect(odd.firstVisibleIdentifier == nil)
        let edge = ModelSelection(identifiers: ["a", "b", "c"], selectedPositions: [], firstVisiblePosition: 0)
        #expect(edge.neighbourIdentifiers == ["b", "c"])
    }

    @Test("the selection and the first visible row survive reordering")
    func survivesReordering() {
        let resolved = selection.resolve(against: saved.reversed())
        #expect(resolved.selectedPositions == [6, 3])
        #expect(resolved.firstVisiblePosition == 4)
        #expect(resolved.droppedIdentifiers.isEmpty)
        #expect(resolved.diagnostics.isEmpty)
    }

    @Test("the selection and the first visible row survive inserted rows")
    func survivesInsertion() {
        let current = ["new-1", "a", "b", "new-2", "c", "d", "new-3", "e", "f", "g", "h"]
        let resolved = selection.resolve(against: current)
        #expect(resolved.selectedPositions.map { current[$0] } == ["b", "e"])
        #expect(resolved.selectedPositions == [2, 7])
        #expect(resolved.firstVisiblePosition == 5)
        #expect(resolved.diagnostics.isEmpty)
    }

    @Test("a deleted selected identifier is dropped with a diagnostic, never mapped to another row")
    func deletedSelectionIsDropped() {
        let current = ["a", "c", "d", "e", "f", "g", "h"]
        let resolved = selection.resolve(against: current)
        #expect(resolved.selectedPositions == [3])
        #expect(current[3] == "e")
        #expect(resolved.droppedIdentifiers == ["b"])
        #expect(resolved.diagnostics == ["selected row b no longer exists; dropped from the selection"])
    }

    @Test(
        "a deleted first visible row falls back to its nearest surviving neighbour, below first at equal distance",
        arguments: [
            (deleted: ["d"], expected: "e"),
            (deleted: ["d", "e"], expected: "c"),
            (deleted: ["d", "e", "c"], expected: "f"),
            (deleted: ["d", "e", "c", "f", "b"], expected: "g"),
        ])
    func firstVisibleFallsBack(deleted: [String], expected: String) throws {
        let current = saved.filter { !deleted.contains($0) }
        let resolved = selection.resolve(against: current)
        let position = try #require(resolved.firstVisiblePosition)
        #expect(current[position] == expected)
        #expect(resolved.droppedIdentifiers.contains("d"))
        #expect(
            resolved.diagnostics.last
                == "first visible row d no longer exists; scrolled to its nearest surviving neighbour \(expected) (row \(position))"
        )
    }

    @Test("a first visible row gone with all its saved neighbours scrolls to the top (nil), with a diagnostic")
    func firstVisibleGoneWithNeighbours() {
        let resolved = selection.resolve(against: ["h", "z"])
        #expect(resolved.firstVisiblePosition == nil)
        #expect(resolved.selectedPositions.isEmpty)
        #expect(resolved.droppedIdentifiers == ["b", "e", "d"])
        #expect(
            resolved.diagnostics == [
                "selected row b no longer exists; dropped from the selection",
                "selected row e no longer exists; dropped from the selection",
                "first visible row d no longer exists, nor do its saved neighbours; scrolled to the top",
            ])
    }

    @Test("empty current data drops everything; an empty selection resolves to nothing")
    func emptyData() {
        let resolved = selection.resolve(against: [])
        #expect(resolved.selectedPositions.isEmpty)
        #expect(resolved.firstVisiblePosition == nil)
        #expect(resolved.droppedIdentifiers == ["b", "e", "d"])
        #expect(ModelSelection<String>().resolve(against: saved) == ModelSelection<String>.Resolution())
    }

    @Test("an identifier the current data holds twice resolves to its first row, every time, with a diagnostic")
    func duplicatesInCurrentData() {
        let current = ["x", "e", "b", "d", "e", "b"]
        let first = selection.resolve(against: current)
        #expect(first.selectedPositions == [2, 1])
        #expect(first.firstVisiblePosition == 3)
        #expect(first.duplicatedIdentifiers == ["b", "e"])
        #expect(
            first.diagnostics == [
                "b appears 2 times in the current data (rows 2, 5); using row 2",
                "e appears 2 times in the current data (rows 1, 4); using row 1",
            ])
        #expect(selection.resolve(against: current) == first)
    }

    @Test("a selected identifier that is also the first visible row is dropped once")
    func droppedOnce() {
        let both = ModelSelection(identifiers: ["a", "b"], selectedPositions: [0], firstVisiblePosition: 0)
        let resolved = both.resolve(against: ["b"])
        #expect(resolved.droppedIdentifiers == ["a"])
        #expect(resolved.firstVisiblePosition == 0)
    }

    @Test("identifiers of any Codable type work, UUIDs and integers alike")
    func otherIdentifierTypes() throws {
        let ids = [UUID(), UUID(), UUID()]
        let byUUID = ModelSelection(identifiers: ids, selectedPositions: [2])
        #expect(byUUID.resolve(against: [ids[2], ids[0]]).selectedPositions == [0])
        let byInt = ModelSelection(identifiers: [10, 20, 30], selectedPositions: [1], firstVisiblePosition: 0)
        #expect(byInt.resolve(against: [30, 20, 10]).selectedPositions == [1])
        #expect(byInt.resolve(against: [30, 20, 10]).firstVisiblePosition == 2)
    }

    @Test("it round-trips through the archive codec unchanged")
    func archiveRoundTrip() throws {
        let data = try ArchiveEncoder().encode(selection)
        #expect(try ArchiveDecoder().decode(ModelSelection<String>.self, from: data) == selection)
    }

    @Test("decoding keeps each identifier once and takes missing fields as empty")
    func decodingNormalises() throws {
        let json = Data(#"{"selected": ["b", "a", "b"], "firstVisible": "c", "neighbours": ["c", "d", "d"]}"#.utf8)
        let decoded = try JSONDecoder().decode(ModelSelection<String>.self, from: json)
        #expect(decoded.selectedIdentifiers == ["b", "a"])
        #expect(decoded.neighbourIdentifiers == ["d"])
        let empty = try JSONDecoder().decode(ModelSelection<String>.self, from: Data("{}".utf8))
        #expect(empty == ModelSelection<String>())
        let strayNeighbours = try JSONDecoder().decode(
            ModelSelection<String>.self, from: Data(#"{"neighbours": ["x"]}"#.utf8))
        #expect(strayNeighbours.neighbourIdentifiers.isEmpty)
    }
}
