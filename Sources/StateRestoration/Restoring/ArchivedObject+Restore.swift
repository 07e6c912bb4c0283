extension ArchivedObject {
    /// Gives each registered object its saved state, in the archive's order; returns
    /// the identifiers restored, and notes what was not.
    ///
    /// - Parameters:
    ///   - archived: The objects an archive holds.
    ///   - objects: The registered objects, by identifier.
    ///   - kind: How messages name an object: `object`, `shared object`.
    ///   - notes: Where what was not restored is noted.
    ///   - unregistered: The note for a saved object no object is registered for.
    /// - Returns: The identifiers of the objects that took back their state.
    static func restore(
        _ archived: [ArchivedObject], into objects: [String: any RestorableObject], kind: String,
        notes: inout [String], unregistered: (ArchivedObject) -> String
    ) async -> [String] {
        var restored: [String] = []
        for saved in archived {
            guard let object = objects[saved.id] else {
                notes.append(unregistered(saved))
                continue
            }
            guard Swift.type(of: object).typeKey == saved.type else {
                notes.append(
                    "\(kind) \(saved.id) was saved as \(saved.type), but a \(Swift.type(of: object).typeKey) is registered under that identifier"
                )
                continue
            }
            do {
                try await object.decodeSavedState(saved.state)
                restored.append(saved.id)
            } catch {
                notes.append("\(kind) \(saved.id) (\(saved.type)) did not decode: \(error)")
            }
        }
        return restored
    }
}
