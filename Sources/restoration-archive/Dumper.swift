import Foundation
import StateRestoration

/// Renders `dump --json`: the whole archive as one JSON document, every state decoded
/// without the app's types.
///
/// The document is built as an `ArchiveValue` tree, whose keyed containers keep their
/// order, and rendered with its JSON renderer, so keys always come in the order below.
/// Shape (optional members are left out when the archive has no such value):
///
/// ```
/// { "file", "size",
///   "header": { "magic", "formatVersion", "flags", "bodyLength", "trailingBytes",
///               "storedChecksum", "computedChecksum", "checksumMatches" },
///   "info": { "appVersion", "savedAt", "ignoresSnapshot", "screenCount", "metadata": { key: value },
///             "metadataErrors"? },
///   "appState", "appStateError"?,
///   "objects": [ { "id", "type", "bytes", "state", "stateError"? } ],
///   "hierarchy": node or null }
/// node: { "path", "id", "kind", "type"?, "version"?, "bytes"?, "state"?, "stateError"?,
///         "selected"? (tabs), "children"? (containers), "presented"? (a node) }
/// ```
struct Dumper {
    let file: ArchiveFile

    func render() -> String {
        document().jsonString(prettyPrinted: true)
    }

    func document() -> ArchiveValue {
        let header = file.header
        let archive = file.archive
        var info: [ArchiveValue.Field] = [
            .init(name: "appVersion", value: archive.appVersion.map(ArchiveValue.string) ?? .null),
            .init(name: "savedAt", value: .string(iso8601(archive.savedAt))),
            .init(name: "ignoresSnapshot", value: .bool(archive.ignoresSnapshot ?? false)),
            .init(name: "screenCount", value: .int(Int64(archive.screenCount))),
        ]
        var metadata: [ArchiveValue.Field] = []
        var metadataErrors: [ArchiveValue.Field] = []
        for key in archive.metadata.keys {
            switch parse(archive.metadata.values[key] ?? Data()) {
            case .success(let value):
                metadata.append(.init(name: key, value: value))
            case .failure(let error):
                metadata.append(.init(name: key, value: .null))
                metadataErrors.append(.init(name: key, value: .string(error.message)))
            }
        }
        info.append(.init(name: "metadata", value: .object(metadata)))
        if !metadataErrors.isEmpty { info.append(.init(name: "metadataErrors", value: .object(metadataErrors))) }

        var fields: [ArchiveValue.Field] = [
            .init(name: "file", value: .string(file.path)),
            .init(name: "size", value: .int(Int64(file.size))),
            .init(
                name: "header",
                value: .object([
                    .init(name: "magic", value: .string(hex(header.magic))),
                    .init(name: "formatVersion", value: .int(Int64(header.formatVersion))),
                    .init(name: "flags", value: .int(Int64(header.flags))),
                    .init(name: "bodyLength", value: .uint(header.bodyLength)),
                    .init(name: "trailingBytes", value: .uint(UInt64(header.actualBodyLength) - header.bodyLength)),
                    .init(name: "storedChecksum", value: .string(hex32(header.storedChecksum))),
                    .init(name: "computedChecksum", value: .string(hex32(header.computedChecksum))),
                    .init(name: "checksumMatches", value: .bool(header.checksumMatches)),
                ])),
            .init(name: "info", value: .object(info)),
        ]
        fields += stateFields(archive.appState, name: "appState", bytes: false)
        let objects = (archive.objects ?? []).map { object in
            ArchiveValue.object(
                [
                    .init(name: "id", value: .string(object.id)),
                    .init(name: "type", value: .string(object.type.rawValue)),
                ] + stateFields(object.state, name: "state", bytes: true))
        }
        fields.append(.init(name: "objects", value: .array(objects)))
        fields.append(.init(name: "hierarchy", value: archive.root.map { node($0, parent: nil) } ?? .null))
        return .object(fields)
    }

    private func node(_ node: ArchivedNode, parent: String?) -> ArchiveValue {
        let path = parent.map { "\($0)/\(node.id)" } ?? node.id
        var fields: [ArchiveValue.Field] = [
            .init(name: "path", value: .string(path)),
            .init(name: "id", value: .string(node.id)),
            .init(name: "kind", value: .string(node.kind.rawValue)),
        ]
        if let type = node.type { fields.append(.init(name: "type", value: .string(type.rawValue))) }
        if let version = node.version { fields.append(.init(name: "version", value: .int(Int64(version)))) }
        if let state = node.state { fields += stateFields(state, name: "state", bytes: true) }
        if node.kind == .tabs {
            fields.append(.init(name: "selected", value: node.selected.map(ArchiveValue.string) ?? .null))
        }
        if let children = node.children {
            fields.append(.init(name: "children", value: .array(children.map { self.node($0, parent: path) })))
        }
        if let presented = node.presented?.first {
            fields.append(.init(name: "presented", value: self.node(presented, parent: path)))
        }
        return .object(fields)
    }

    /// `"bytes": n, "<name>": value` or, when the bytes do not parse,
    /// `"bytes": n, "<name>": null, "<name>Error": message`.
    private func stateFields(_ data: Data?, name: String, bytes: Bool) -> [ArchiveValue.Field] {
        var fields: [ArchiveValue.Field] = []
        if bytes { fields.append(.init(name: "bytes", value: .int(Int64(data?.count ?? 0)))) }
        guard let data else { return fields + [.init(name: name, value: .null)] }
        switch parse(data) {
        case .success(let value):
            fields.append(.init(name: name, value: value))
        case .failure(let error):
            fields.append(.init(name: name, value: .null))
            fields.append(.init(name: name + "Error", value: .string(error.message)))
        }
        return fields
    }
}
