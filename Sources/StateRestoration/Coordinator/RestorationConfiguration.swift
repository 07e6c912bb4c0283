public import Foundation

/// How a coordinator saves and restores.
///
/// ```swift
/// let configuration = RestorationConfiguration(appVersion: "2.4 (311)", extensionTimeout: .seconds(5))
/// ```
public struct RestorationConfiguration: Sendable {
    /// The app version written into every archive, for should-restore to compare.
    public var appVersion: String?
    /// The key of the archive in the store (one per scene, say).
    public var storeKey: StoreKey
    /// How long a launch waits for its restoration extensions before cancelling them.
    public var extensionTimeout: Duration
    /// The clock the timeout is measured on; tests inject a manual one.
    public var clock: any Clock<Duration>
    /// Restores an archive even when the previous launch died while restoring it.
    ///
    /// For debugging only, like the profile Apple offers for UIKit: a crash in
    /// restoration then repeats at every launch.
    public var restoresAfterCrash: Bool
    /// How old an archive may be and still be restored; nil means no limit.
    ///
    /// A search or a route from last week is more confusing than helpful.
    /// Screens can set a shorter limit of their own with
    /// ``RestorableScreen/maximumStateAge``.
    public var maximumArchiveAge: Duration?
    /// The current date, for archive ages and save dates; tests inject a fixed one.
    public var now: @Sendable () -> Date
    /// How large states may grow before a save warns, or refuses when enforced.
    public var budget: SizeBudget
    /// Where the events of every save and launch go; nil (the default) logs nothing.
    public var logHandler: (any RestorationLogHandler)?
    /// What ``RestorationCoordinator/userClosedScene()`` does with the archive when
    /// the user closes the app, or this window, from the app switcher.
    ///
    /// The default keeps it: nothing the user typed is lost, and the next launch
    /// restores. ``UserClosePolicy/discardsArchive`` does what UIKit does, which
    /// takes a closing from the switcher for "start over".
    public var userClosePolicy: UserClosePolicy = .keepsArchive
    /// Where a launch records how far its extensions have come; the testing
    /// harness reads it to time out extensions on a test clock.
    package var extensionProgress: ExtensionProgress?

    /// Creates a configuration.
    ///
    /// - Parameters:
    ///   - appVersion: The app version written into every archive.
    ///   - storeKey: The key of the archive in the store.
    ///   - extensionTimeout: How long a launch waits for its extensions.
    ///   - clock: The clock the timeout is measured on.
    ///   - restoresAfterCrash: Restore even after a launch died restoring (debugging only).
    ///   - maximumArchiveAge: How old an archive may be and still be restored.
    ///   - now: The current date.
    ///   - budget: How large states may grow before a save warns.
    ///   - logHandler: Where the events of every save and launch go.
    public init(
        appVersion: String? = nil, storeKey: StoreKey = .main, extensionTimeout: Duration = .seconds(20),
        clock: any Clock<Duration> = ContinuousClock(), restoresAfterCrash: Bool = false,
        maximumArchiveAge: Duration? = nil, now: @escaping @Sendable () -> Date = Date.init,
        budget: SizeBudget = .recommended, logHandler: (any RestorationLogHandler)? = nil
    ) {
        self.logHandler = logHandler
        self.budget = budget
        self.maximumArchiveAge = maximumArchiveAge
        self.now = now
        self.restoresAfterCrash = restoresAfterCrash
        self.appVersion = appVersion
        self.storeKey = storeKey
        self.extensionTimeout = extensionTimeout
        self.clock = clock
    }
}
