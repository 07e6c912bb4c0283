import Foundation
import StateRestoration

/// Renders `diff A B`: what changed from archive A to archive B, without the app's types.
///
/// Output, one change per line, nothing when the archives hold the same things:
///
/// ```
/// --- A (saved <date>)
/// +++ B (saved <date>)
/// app version: "4.1" → "4.2"
/// metadata region: "eu" → "jp"
/// app state: cartCount: 2 → 3
/// objects/wishlist: items.1: (none) → "rye bread"
/// selected tab of tabs: browse → split
/// + tabs/browse/product#3  product v1
/// - tabs/browse/review#3  review v1
/// ~ tabs/browse/search#0  search v1
///     query: "milk" → "oat milk"
/// ```
///
/// Values are compact JSON; nested fields are dotted paths (`filters.maxPrice`,
/// `items.1`); a field one archive lacks is `(none)`. The save date is shown but not
/// compared: two saves of the same hierarchy are the same.
struct Differ {
    let old: ArchiveFile
    let new: ArchiveFile

    func render() -> [String] {
        var lines: [String] = []
        if old.archive.appVersion != new.archive.appVersion {
            lines.append("app version: \(quoted(old.archive.appVersion)) → \(quoted(new.archive.appVersion))")
        }
        if (old.archive.ignoresSnapshot ?? false) != (new.archive.ignoresSnapshot ?? false) {
            lines.append(
                "ignores snapshot: \(old.archive.ignoresSnapshot ?? false) → \(new.archive.ignoresSnapshot ?? false)")
        }
        let oldMetadata = old.archive.metadata.values
        let newMetadata = new.archive.metadata.values
        for key in Set(oldMetadata.keys).union(newMetadata.keys).sorted() {
            lines += fieldChanges(oldMetadata[key], newMetadata[key], label: "metadata \(key)")
        }
        lines += fieldChanges(old.archive.appState, new.archive.appState, label: "app state")
        lines += objectChanges()
        lines += treeChanges()
        guard !lines.isEmpty else { return [] }
        return [
            "--- \(old.path) (saved \(iso8601(old.archive.savedAt)))",
            "+++ \(new.path) (saved \(iso8601(new.archive.savedAt)))",
        ] + lines
    }

    private func objectChanges() -> [String] {
        let oldObjects = old.archive.objects ?? []
        let newObjects = new.archive.objects ?? []
        var lines: [String] = []
        for object in oldObjects {
            guard let counterpart = newObjects.first(where: { $0.id == object.id }) else {
                lines.append("- objects/\(object.id)  \(object.type.rawValue)")
                continue
            }
            if counterpart.type != object.type {
                lines.append("~ objects/\(object.id)  type: \(object.type.rawValue) → \(counterpart.type.rawValue)")
            }
            lines += fieldChanges(object.state, counterpart.state, label: "objects/\(object.id)")
        }
        for object in newObjects where !oldObjects.contains(where: { $0.id == object.id }) {
            lines.append("+ objects/\(object.id)  \(object.type.rawValue)")
        }
        return lines
    }

    private func treeChanges() -> [String] {
        let oldVisits = NodeVisit.all(from: old.archive.root)
        let newVisits = NodeVisit.all(from: new.archive.root)
        let newByPath = Dictionary(newVisits.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let oldPaths = Set(oldVisits.map(\.path))
        var lines: [String] = []
        var screenLines: [String] = []
        for visit in oldVisits {
            guard let counterpart = newByPath[visit.path] else {
                screenLines.append("- \(visit.path)  \(title(visit.node))")
                continue
            }
            let before = visit.node
            let after = counterpart.node
            if before.kind == .tabs, after.kind == .tabs, before.selected != after.selected {
                lines.append(
                    "selected tab of \(visit.path): \(before.selected ?? "(none)") → \(after.selected ?? "(none)")")
            }
            var changes: [String] = []
            if before.kind != after.kind { changes.append("kind: \(before.kind.rawValue) → \(after.kind.rawValue)") }
            if before.type != after.type {
                changes.append("type: \(before.type?.rawValue ?? "(none)") → \(after.type?.rawValue ?? "(none)")")
            }
            if before.version != after.version {
                changes.append(
                    "version: \(before.version.map(String.init) ?? "(none)") → \(after.version.map(String.init) ?? "(none)")"
                )
            }
            changes += fieldChanges(before.state, after.state, label: nil)
            if visit.isPresented != counterpart.isPresented {
                changes.append("presented: \(visit.isPresented) → \(counterpart.isPresented)")
            }
            if !changes.isEmpty {
                screenLines.append("~ \(visit.path)  \(title(after))")
                screenLines += changes.map { "    " + $0 }
            }
        }
        for visit in newVisits where !oldPaths.contains(visit.path) {
            screenLines.append("+ \(visit.path)  \(title(visit.node))")
        }
        return lines + screenLines
    }

    /// `product v1`, or the kind for a node without a type.
    private func title(_ node: ArchivedNode) -> String {
        guard let type = node.type else { return node.kind.rawValue }
        return type.rawValue + (node.version.map { " v\($0)" } ?? "")
    }

    /// The changed fields between two encoded values, each `path: old → new`, prefixed
    /// with `label: ` when there is a label.
    private func fieldChanges(_ before: Data?, _ after: Data?, label: String?) -> [String] {
        if before == after { return [] }
        let prefix = label.map { "\($0): " } ?? ""
        let oldValue = before.map(parse)
        let newValue = after.map(parse)
        if case .failure(let error) = oldValue {
            return ["\(prefix)does not parse in A (\(error.message)); changed in B"]
        }
        if case .failure(let error) = newValue {
            return ["\(prefix)does not parse in B (\(error.message)); changed from A"]
        }
        var changes: [(field: String?, change: String)] = []
        compare(try? oldValue?.get(), try? newValue?.get(), path: [], into: &changes)
        // A change of the whole value names no field: `label: old → new`, or `value: old → new` on a screen.
        return changes.map { field, change in
            switch (label, field) {
            case (let label?, let field?): "\(label): \(field): \(change)"
            case (let label?, nil): "\(label): \(change)"
            case (nil, let field?): "\(field): \(change)"
            case (nil, nil): "value: \(change)"
            }
        }
    }

    /// Compares two value trees field by field; objects by field name, arrays by index.
    /// Each change is the dotted path of the field (nil for the whole value) and `old → new`.
    private func compare(
        _ before: ArchiveValue?, _ after: ArchiveValue?, path: [String],
        into changes: inout [(field: String?, change: String)]
    ) {
        if before == after { return }
        switch (before, after) {
        case (.object(let oldFields)?, .object(let newFields)?):
            for field in oldFields {
                compare(
                    field.value, newFields.first { $0.name == field.name }?.value, path: path + [field.name],
                    into: &changes)
            }
            for field in newFields where !oldFields.contains(where: { $0.name == field.name }) {
                compare(nil, field.value, path: path + [field.name], into: &changes)
            }
        case (.array(let oldElements)?, .array(let newElements)?):
            for index in 0..<max(oldElements.count, newElements.count) {
                compare(
                    index < oldElements.count ? oldElements[index] : nil,
                    index < newElements.count ? newElements[index] : nil,
                    path: path + [String(index)], into: &changes)
            }
        default:
            changes.append(
                (
                    path.isEmpty ? nil : path.joined(separator: "."),
                    "\(before.map(json) ?? "(none)") → \(after.map(json) ?? "(none)")"
                ))
        }
    }

    private func quoted(_ text: String?) -> String {
        text.map { json(.string($0)) } ?? "(none)"
    }
}
