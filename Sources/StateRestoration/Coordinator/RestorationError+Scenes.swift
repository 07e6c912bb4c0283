extension RestorationError.Code {
    /// A scene identifier cannot name an archive in the store; see
    /// ``RestorationScenes/storeKey(for:)``.
    ///
    /// ```swift
    /// do { _ = try scenes.coordinator(for: "a/b") }
    /// catch let error as RestorationError where error.code == .invalidSceneIdentifier { print(error) }
    /// ```
    public static let invalidSceneIdentifier = RestorationError.Code(rawValue: "invalid-scene-identifier")
}
