import Foundation

public import StateRestoration

extension RestorationHarness {
    /// A relaunched simulated process: the hierarchy it restored, its launch
    /// report, its coordinator, and the delegate calls of the processes involved.
    ///
    /// ```swift
    /// let relaunched = try await harness.relaunch(saving: tree)
    /// #expect(relaunched.tree == tree)
    /// #expect(relaunched.report.outcome == .restored)
    /// try await relaunched.coordinator.save(relaunched.tree)   // the relaunched app saves again
    /// ```
    ///
    /// `Relaunch` is `Sendable`.
    public struct Relaunch: Sendable {
        /// The session the launch returned.
        public var session: RestorationSession
        /// What the first process saved; nil for ``RestorationHarness/launch()``.
        public let saveReport: SaveReport?
        /// The delegate's calls, in order, from the save (when there was one)
        /// through the launch.
        public let lifecycle: [LifecycleEvent]
        /// The relaunched process's coordinator, for what the app does next.
        public let coordinator: RestorationCoordinator<LifecycleRecorder<Delegate>>

        /// The hierarchy the launch restored, or the declaration's initial one.
        public var tree: ScreenTree {
            get { session.tree }
            set { session.tree = newValue }
        }

        /// What the launch did.
        public var report: LaunchReport { session.report }

        /// The name of the archive check that failed, such as `checksum-mismatch`,
        /// when the launch rejected the archive; nil otherwise.
        ///
        /// ```swift
        /// #expect(relaunched.rejectedCheck == ArchiveDamage.replacedMagic().expectedCheck)
        /// ```
        public var rejectedCheck: String? { report.rejectedCheck }
    }
}
