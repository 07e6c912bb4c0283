public import Foundation

/// What the coordinator knows about a saved archive before restoring it: what
/// the delegate's ``RestorationDelegate/shouldRestore(_:)`` decides on.
///
/// ```swift
/// func shouldRestore(_ archive: ArchiveInfo) async -> Bool {
///     archive.appVersion == "2.4 (311)"   // the running version: refuse archives of others
/// }
/// ```
public struct ArchiveInfo: Sendable, Equatable {
    /// The archive format version the file was written in.
    public var formatVersion: UInt16
    /// The app version the coordinator was configured with when it saved.
    public var appVersion: String?
    /// When the archive was saved.
    public var savedAt: Date
    /// The values the delegate added in ``RestorationDelegate/shouldSave(_:)``.
    public var metadata: RestorationMetadata
    /// How many screens the archive holds.
    public var screenCount: Int
    /// Whether the app asked, while saving, that the snapshot taken then not be
    /// shown at this launch (UIKit's `ignoreSnapshotOnNextApplicationLaunch()`).
    public var ignoresSnapshot: Bool

    /// Creates archive info.
    ///
    /// - Parameters:
    ///   - formatVersion: The archive format version.
    ///   - appVersion: The app version at save time.
    ///   - savedAt: When the archive was saved.
    ///   - metadata: The delegate's values.
    ///   - screenCount: How many screens the archive holds.
    ///   - ignoresSnapshot: Whether the saved snapshot should not be shown.
    public init(
        formatVersion: UInt16, appVersion: String?, savedAt: Date, metadata: RestorationMetadata, screenCount: Int,
        ignoresSnapshot: Bool = false
    ) {
        self.ignoresSnapshot = ignoresSnapshot
        self.formatVersion = formatVersion
        self.appVersion = appVersion
        self.savedAt = savedAt
        self.metadata = metadata
        self.screenCount = screenCount
    }
}
