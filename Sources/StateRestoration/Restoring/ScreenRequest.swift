/// What the delegate gets to make one screen: its type key and decoded state.
///
/// Nothing is made until the delegate asks: ``makeScreen()`` calls
/// ``RestorableScreen/init(state:)``, so a delegate that makes the screen another
/// way, or returns nil, never runs it.
public struct ScreenRequest: Sendable {
    /// The screen's identifier path.
    public let identifierPath: IdentifierPath
    /// The screen type's key.
    public let typeKey: ScreenTypeKey
    /// The archive being restored.
    public let archiveInfo: ArchiveInfo
    private let screenType: any RestorableScreen.Type
    private let decodedState: any Sendable
    private let make: @Sendable () -> any RestorableScreen

    init<S: RestorableScreen>(
        identifierPath: IdentifierPath, archiveInfo: ArchiveInfo, screenType: S.Type, state: S.State
    ) {
        self.identifierPath = identifierPath
        self.typeKey = S.typeKey
        self.archiveInfo = archiveInfo
        self.screenType = S.self
        self.decodedState = state
        self.make = { S(state: state) }
    }

    /// The decoded state, when the screen is of type `S`.
    ///
    /// - Parameter type: The screen type expected.
    /// - Returns: Its state, or nil when the screen is of another type.
    public func state<S: RestorableScreen>(as type: S.Type) -> S.State? {
        guard screenType == S.self else { return nil }
        return decodedState as? S.State
    }

    /// A new screen made with ``RestorableScreen/init(state:)`` from the decoded state.
    ///
    /// - Returns: The screen.
    public func makeScreen() -> any RestorableScreen {
        make()
    }
}
