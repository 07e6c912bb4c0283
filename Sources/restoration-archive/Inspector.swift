import Foundation
import StateRestoration

/// Renders `inspect`: the header, the archive info, the shared objects, the app-wide
/// state and the hierarchy as an indented tree, as plain text.
struct Inspector {
    let file: ArchiveFile

    func render() -> String {
        var lines: [String] = []
        let header = file.header
        let archive = file.archive
        lines.append("file: \(file.path) (\(file.size) bytes)")

        lines.append("header:")
        lines.append("  magic: \(hex(header.magic)) (ok)")
        lines.append("  format version: \(header.formatVersion)")
        lines.append("  flags: \(hex16(header.flags))")
        var length = "  body length: \(header.bodyLength) bytes"
        let trailing = UInt64(header.actualBodyLength) - header.bodyLength
        if trailing > 0 { length += " (\(trailing) trailing bytes after it)" }
        lines.append(length)
        let verdict = header.checksumMatches ? "matches" : "MISMATCH"
        lines.append(
            "  checksum: stored \(hex32(header.storedChecksum)), computed \(hex32(header.computedChecksum)) (\(verdict))"
        )

        lines.append("info:")
        lines.append("  app version: \(archive.appVersion ?? "(none)")")
        lines.append("  saved at: \(iso8601(archive.savedAt))")
        lines.append("  ignores snapshot: \(archive.ignoresSnapshot ?? false ? "yes" : "no")")
        let keys = archive.metadata.keys
        lines.append("  metadata: \(keys.isEmpty ? "none" : count(keys.count, "key"))")
        for key in keys {
            lines.append("    \(key): \(summary(archive.metadata.values[key] ?? Data()))")
        }

        let objects = archive.objects ?? []
        lines.append("objects: \(objects.isEmpty ? "none" : "\(objects.count)")")
        for object in objects {
            lines.append("  \(object.id)  type \(object.type.rawValue), \(count(object.state.count, "byte"))")
        }

        lines.append("app state: \(archive.appState.map(summary) ?? "none")")

        let visits = NodeVisit.all(from: archive.root)
        guard !visits.isEmpty else {
            lines.append("hierarchy: none (the root had no restoration identifier)")
            return lines.map { $0 + "\n" }.joined()
        }
        let stateBytes = visits.reduce(0) { $0 + ($1.node.state?.count ?? 0) }
        lines.append(
            "hierarchy: \(count(visits.count, "node")), \(count(archive.screenCount, "screen")), "
                + "\(count(stateBytes, "state byte"))")
        let width = visits.map { $0.depth * 2 + $0.path.count }.max() ?? 0
        for visit in visits {
            let indented = String(repeating: "  ", count: visit.depth + 1) + visit.path
            let padding = String(repeating: " ", count: width + 2 - indented.count + 2)
            lines.append(indented + padding + describe(visit))
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// `screen     product v1, 21 bytes (presented)`.
    private func describe(_ visit: NodeVisit) -> String {
        let node = visit.node
        var parts = [node.kind.rawValue.padding(toLength: 10, withPad: " ", startingAt: 0)]
        var details: [String] = []
        if let type = node.type {
            details.append(type.rawValue + (node.version.map { " v\($0)" } ?? ""))
        }
        if let state = node.state {
            var size = count(state.count, "byte")
            if case .failure(let error) = parse(state) { size += " (state does not parse: \(error.message))" }
            details.append(size)
        }
        if node.kind == .tabs { details.append("selected: \(node.selected ?? "(none)")") }
        parts.append(details.joined(separator: ", "))
        if visit.isSelected { parts.append("(selected)") }
        if visit.isPresented { parts.append("(presented)") }
        return parts.joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }

    /// A self-describing value as compact JSON, or why it does not parse.
    private func summary(_ data: Data) -> String {
        switch parse(data) {
        case .success(let value): json(value)
        case .failure(let error): "(\(count(data.count, "byte")) that do not parse: \(error.message))"
        }
    }
}

/// `1 byte`, `3 bytes`.
func count(_ number: Int, _ noun: String) -> String {
    "\(number) \(noun)\(number == 1 ? "" : "s")"
}
