/// A custom container screen whose children the app manages.
///
/// Navigation stacks, tabs and modal presentation restore their own structure.
/// A custom container (a split view, a carousel, a dashboard of cards) has
/// children only the app knows how to arrange. In UIKit such a container encodes
/// its children itself in `encodeRestorableState(with:)`; here the app adds and
/// removes children on the hierarchy (``ScreenTree/addChild(_:id:to:)``) and the
/// container chooses which of them are preserved.
///
/// ```swift
/// struct SplitScreen: RestorableContainer {
///     struct State: Codable, Sendable, Equatable { var ratio = 0.4 }
///     var state = State()
/// }
///
/// Container(SplitScreen(), id: "split") {
///     Screen(MailboxScreen.self, id: "mailbox")
///     Screen(MessageScreen.self, id: "message")
/// }
/// ```
public protocol RestorableContainer: RestorableScreen {
    /// Chooses which of the container's current children are saved, and in which
    /// order. The default keeps them all.
    ///
    /// A save asks the container as the tree holds it: before its
    /// ``RestorableScreen/willEncodeRestorableState()`` runs on the copy whose state
    /// is written, so a choice must not depend on what that hook sets.
    /// ``ScreenTree/restorablePaths`` asks it the same way.
    ///
    /// - Parameter children: The identifiers of the current children, in order
    ///   (nil for a child without a restoration identifier, which is never saved).
    /// - Returns: The identifiers to save.
    func childrenToPreserve(_ children: [String?]) -> [String]

    /// Called after the container's children were restored, before its own
    /// ``RestorableScreen/restorationDidFinish(_:)``. The default does nothing.
    ///
    /// - Parameter identifiers: The identifiers of the children that came back.
    mutating func didRestoreChildren(_ identifiers: [String])
}

extension RestorableContainer {
    /// Keeps every child that has an identifier.
    public func childrenToPreserve(_ children: [String?]) -> [String] {
        children.compactMap { $0 }
    }

    /// Does nothing.
    public mutating func didRestoreChildren(_ identifiers: [String]) {}
}
