/// Declares one screen.
///
/// Give an instance where the screen is part of the hierarchy on a fresh launch
/// (a tab, a stack's root); give only the type where it is pushed or presented
/// later. Without an identifier the screen, and everything under it, is never
/// saved: fine for a short-lived screen.
///
/// ```swift
/// Screen(SettingsScreen(), id: "settings")    // a tab
/// Screen(ReviewScreen.self, id: "review")     // pushed or presented later
/// Screen(ScratchScreen())                     // never saved
/// ```
public struct Screen: DeclarationElement {
    /// The declared node.
    public let declarationNode: DeclarationNode

    /// Declares a screen that is part of the initial hierarchy.
    ///
    /// - Parameters:
    ///   - screen: The screen on a fresh launch.
    ///   - id: Its restoration identifier; nil means never saved.
    ///   - fileID: The file that declares it, for diagnostics; leave the default.
    ///   - line: The line that declares it, for diagnostics; leave the default.
    public init<S: RestorableScreen>(_ screen: S, id: String? = nil, fileID: String = #fileID, line: Int = #line) {
        declarationNode = DeclarationNode(
            identifier: id, kind: .screen, screenType: S.self, initialScreen: screen,
            location: DeclarationLocation(fileID: fileID, line: line))
    }

    /// Declares a screen that is only pushed or presented, never there at launch.
    ///
    /// - Parameters:
    ///   - type: The screen's type.
    ///   - id: Its restoration identifier; nil means never saved.
    ///   - fileID: The file that declares it, for diagnostics; leave the default.
    ///   - line: The line that declares it, for diagnostics; leave the default.
    public init<S: RestorableScreen>(_ type: S.Type, id: String? = nil, fileID: String = #fileID, line: Int = #line) {
        declarationNode = DeclarationNode(
            identifier: id, kind: .screen, screenType: S.self,
            location: DeclarationLocation(fileID: fileID, line: line))
    }
}
