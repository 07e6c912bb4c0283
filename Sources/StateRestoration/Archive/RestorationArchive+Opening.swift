import Foundation

extension RestorationArchive {
    /// Opens an archive's envelope and decodes its body: every check but the
    /// restoration marker and the archive's age.
    ///
    /// - Parameter data: The archive's bytes, as a store read them.
    /// - Returns: The decoded archive and its info.
    /// - Throws: ``ArchiveError`` or a `DecodingError` wrapping one, naming the check that failed.
    static func open(_ data: Data) throws -> (RestorationArchive, ArchiveInfo) {
        let opened = try ArchiveEnvelope.open(data, supportedVersions: 1...formatVersion)
        let archive = try ArchiveDecoder().decode(RestorationArchive.self, from: opened.body)
        guard plausibleSaveDates.contains(archive.savedAt.timeIntervalSince1970) else {
            throw ArchiveError(
                .invalidSaveDate, "the archive says it was saved \(archive.savedAt.timeIntervalSince1970) s after 1970")
        }
        let info = ArchiveInfo(
            formatVersion: opened.formatVersion, appVersion: archive.appVersion, savedAt: archive.savedAt,
            metadata: archive.metadata, screenCount: archive.screenCount,
            ignoresSnapshot: archive.ignoresSnapshot ?? false)
        return (archive, info)
    }

    /// The archive check an error names: the codec's code, found through the
    /// decoding errors that wrap it, or `undecodable-body`.
    ///
    /// - Parameter error: What ``open(_:)`` threw.
    /// - Returns: The check's name, for a rejected copy's name and a launch report.
    static func failedCheck(_ error: any Error) -> String {
        if let error = error as? ArchiveError { return error.code.rawValue }
        if case .dataCorrupted(let context) = error as? DecodingError, let underlying = context.underlyingError {
            return failedCheck(underlying)
        }
        return "undecodable-body"
    }
}

extension ArchiveError.Code {
    /// A restoration archive's save date is not a date any save could have written.
    public static let invalidSaveDate = ArchiveError.Code(rawValue: "invalid-save-date")
}
