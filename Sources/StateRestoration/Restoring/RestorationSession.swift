/// What a launch hands the app: the hierarchy to show and what happened.
public struct RestorationSession: Sendable {
    /// The restored hierarchy, or the declaration's initial one.
    public var tree: ScreenTree
    /// What the launch did.
    public let report: LaunchReport

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - tree: The hierarchy.
    ///   - report: What the launch did.
    public init(tree: ScreenTree, report: LaunchReport) {
        self.tree = tree
        self.report = report
    }
}
