import Foundation
import StateRestoration

/// Runs `validate`: every check on one archive file, one line per failing check.
///
/// The envelope checks run in `ArchiveEnvelope.open`'s order and use its error codes
/// as check names (`truncated`, `bad-magic`, `unsupported-version`, `length-mismatch`,
/// `checksum-mismatch`), plus `nonzero-flags`. A wrong magic, an unknown version or a
/// truncated body stop there: nothing after them can be read meaningfully. Otherwise
/// the body is decoded (`undecodable-body`, the coordinator's name for it), and then
/// every state and the tree are checked: `unparseable-state`, `unparseable-object`,
/// `unparseable-app-state`, `unparseable-metadata`, `missing-state`, `bad-id`,
/// `stack-order`, `selected-tab`, `duplicate-id`, `presented-count`.
struct Validator {
    /// One failed check: its name and a message that says where.
    struct Failure: Equatable {
        var check: String
        var message: String

        var line: String { "\(check): \(oneLine(message))" }
    }

    let path: String

    /// Validates the file.
    ///
    /// - Returns: `<path>: valid (…)` and status 0, or one line per failure and status 1.
    /// - Throws: ``ToolError`` when the file cannot be read at all.
    func run() throws(ToolError) -> Tool.Output {
        let bytes = try ArchiveFile.read(path)
        let (failures, archive) = Self.check(bytes)
        guard failures.isEmpty, let archive else {
            return Tool.Output(
                standardOutput: failures.map { $0.line + "\n" }.joined(), status: Tool.Status.failure)
        }
        let states = NodeVisit.all(from: archive.root).filter { $0.node.state != nil }.count
        return Tool.Output(
            standardOutput:
                "\(path): valid (envelope, body, \(count(states, "screen state")), "
                + "\(count(archive.objects?.count ?? 0, "object")), tree)\n")
    }

    /// Every check on an archive file's bytes.
    ///
    /// - Returns: The failures, and the decoded body when it decodes.
    static func check(_ bytes: Data) -> ([Failure], RestorationArchive?) {
        var failures: [Failure] = []
        let header: ArchiveEnvelope.Header
        do {
            header = try ArchiveEnvelope.inspectHeader(bytes)
        } catch {
            let message = "the file has \(count(bytes.count, "byte")); a header needs \(ArchiveEnvelope.headerSize)"
            return ([Failure(check: "truncated", message: message)], nil)
        }
        guard header.magicMatches else {
            let message = "bytes 0-7 are \(hex(header.magic)), expected \(hex(ArchiveEnvelope.magic))"
            return ([Failure(check: "bad-magic", message: message)], nil)
        }
        let supported = ArchiveFile.supportedVersions
        guard supported.contains(header.formatVersion) else {
            let message =
                "format version \(header.formatVersion) at byte 8; this tool reads "
                + "\(supported.lowerBound)...\(supported.upperBound)"
            return ([Failure(check: "unsupported-version", message: message)], nil)
        }
        if header.flags != 0 {
            failures.append(
                Failure(check: "nonzero-flags", message: "flags at byte 10 are \(hex16(header.flags)), expected 0x0000")
            )
        }
        guard let body = ArchiveFile.body(of: bytes, header: header) else {
            let message =
                "the header records a \(header.bodyLength)-byte body, the file has "
                + "\(header.actualBodyLength) bytes after the header"
            return (failures + [Failure(check: "truncated", message: message)], nil)
        }
        let trailing = UInt64(header.actualBodyLength) - header.bodyLength
        if trailing > 0 {
            let message = "\(count(Int(trailing), "trailing byte")) after the \(header.bodyLength)-byte body"
            failures.append(Failure(check: "length-mismatch", message: message))
        }
        if header.storedChecksum != header.computedChecksum {
            let message = "stored \(hex32(header.storedChecksum)), computed \(hex32(header.computedChecksum))"
            failures.append(Failure(check: "checksum-mismatch", message: message))
        }
        let archive: RestorationArchive
        do {
            archive = try ArchiveDecoder().decode(RestorationArchive.self, from: body)
        } catch {
            failures.append(Failure(check: "undecodable-body", message: describe(error)))
            return (failures, nil)
        }
        // As a launch does: any other date is damage, and would overflow the arithmetic of ages.
        let seconds = archive.savedAt.timeIntervalSince1970
        if !RestorationArchive.plausibleSaveDates.contains(seconds) {
            let message = "the archive says it was saved \(seconds) s after 1970, outside 1970 to the year 9999"
            failures.append(Failure(check: "invalid-save-date", message: message))
        }
        failures += checkValues(archive)
        failures += checkTree(archive.root)
        return (failures, archive)
    }

    /// The metadata, app state and shared objects parse as self-describing values.
    private static func checkValues(_ archive: RestorationArchive) -> [Failure] {
        var failures: [Failure] = []
        for key in archive.metadata.keys {
            if case .failure(let error) = parse(archive.metadata.values[key] ?? Data()) {
                failures.append(
                    Failure(check: "unparseable-metadata", message: "metadata \(key): does not parse: \(error.message)")
                )
            }
        }
        if let appState = archive.appState, case .failure(let error) = parse(appState) {
            failures.append(
                Failure(check: "unparseable-app-state", message: "app state does not parse: \(error.message)"))
        }
        var objectIDs: Set<String> = []
        for object in archive.objects ?? [] {
            if !objectIDs.insert(object.id).inserted {
                failures.append(Failure(check: "duplicate-id", message: "objects: two objects named \(object.id)"))
            }
            if case .failure(let error) = parse(object.state) {
                failures.append(
                    Failure(
                        check: "unparseable-object",
                        message:
                            "objects/\(object.id) (\(object.type.rawValue)): state does not parse: \(error.message)"))
            }
        }
        return failures
    }

    /// Every node's state parses, and the tree is shaped as the coordinator writes it.
    private static func checkTree(_ root: ArchivedNode?) -> [Failure] {
        var failures: [Failure] = []
        for visit in NodeVisit.all(from: root) {
            let node = visit.node
            let path = visit.path
            if node.id.isEmpty || node.id.contains("/") {
                failures.append(
                    Failure(check: "bad-id", message: "\(path): identifier \"\(node.id)\" is empty or has a /"))
            }
            if let state = node.state, case .failure(let error) = parse(state) {
                failures.append(
                    Failure(check: "unparseable-state", message: "\(path): state does not parse: \(error.message)"))
            }
            if node.kind == .screen || node.kind == .container, node.type == nil || node.state == nil {
                failures.append(
                    Failure(check: "missing-state", message: "\(path): a \(node.kind.rawValue) without a type or state")
                )
            }
            let children = node.children ?? []
            if node.kind == .stack {
                for (index, child) in children.enumerated() where position(of: child.id) != index {
                    failures.append(
                        Failure(
                            check: "stack-order",
                            message: "\(path): child \(index) is \(child.id), expected position #\(index)"))
                }
            }
            if node.kind == .tabs, let selected = node.selected, !children.contains(where: { $0.id == selected }) {
                let ids = children.map(\.id).joined(separator: ", ")
                failures.append(
                    Failure(
                        check: "selected-tab",
                        message: "\(path): selected tab \(selected) is not one of its children (\(ids))"))
            }
            if node.kind != .tabs, let selected = node.selected {
                failures.append(
                    Failure(
                        check: "selected-tab",
                        message: "\(path): a \(node.kind.rawValue) records a selected tab \(selected)"))
            }
            var seen: Set<String> = []
            for child in children where !seen.insert(child.id).inserted {
                failures.append(Failure(check: "duplicate-id", message: "\(path): two children named \(child.id)"))
            }
            if let presented = node.presented, presented.count > 1 {
                failures.append(
                    Failure(check: "presented-count", message: "\(path): presents \(presented.count) nodes, at most 1"))
            }
        }
        return failures
    }

    /// The position in `base#position`, or nil.
    private static func position(of component: String) -> Int? {
        guard let hash = component.lastIndex(of: "#") else { return nil }
        return Int(component[component.index(after: hash)...])
    }
}
