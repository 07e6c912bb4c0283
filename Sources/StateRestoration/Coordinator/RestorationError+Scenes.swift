extension RestorationError.Code {
    /// A scene identifier cannot name an archive in the store; see
    /// ``RestorationScenes/storeKey(for:)``.
    ///
    /// ```swift
    /// do { _ = try scenes.coordinator(for: "a/b") }
    /// catch let error as RestorationError where error.code == .invalidSceneIdentifier { print(error) }
    /// ```
    public static let invalidSceneIdentifier = RestorationError.Code(rawValue: "invalid-scene-identifier")

    /// A scene was asked for with a screen declaration of another structure than the
    /// one its coordinator was made with; see
    /// ``RestorationScenes/coordinator(for:screens:store:)``. Nothing was changed.
    ///
    /// ```swift
    /// do { _ = try scenes.coordinator(for: sceneID, screens: composeScreens) }
    /// catch let error as RestorationError where error.code == .sceneDeclarationConflict { print(error) }
    /// ```
    public static let sceneDeclarationConflict = RestorationError.Code(rawValue: "scene-declaration-conflict")
}
