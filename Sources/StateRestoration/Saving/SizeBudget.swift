/// How large saved states may grow before each save says so.
///
/// Android allows about 1 MB of saved state per process and recommends staying
/// under 50 KB; past the limit it crashes with `TransactionTooLargeException`. Here
/// a save over budget still succeeds (unless the budget is enforced) and its
/// ``SaveReport/budgetWarnings`` name the largest screens and their sizes. The
/// usual remedy is to save a database key, not the data.
///
/// ```swift
/// var configuration = RestorationConfiguration()
/// configuration.budget = SizeBudget(perScreen: 20_000, perArchive: 200_000, isEnforced: true)
/// ```
public struct SizeBudget: Sendable, Equatable {
    /// The most bytes one screen's encoded state should take; nil means no limit.
    public var perScreen: Int?
    /// The most bytes the whole archive should take; nil means no limit.
    public var perArchive: Int?
    /// Whether a save over budget throws instead of writing.
    public var isEnforced: Bool

    /// Creates a budget.
    ///
    /// - Parameters:
    ///   - perScreen: The most bytes one screen's state should take.
    ///   - perArchive: The most bytes the archive should take.
    ///   - isEnforced: Whether a save over budget throws instead of writing.
    public init(perScreen: Int?, perArchive: Int?, isEnforced: Bool = false) {
        self.perScreen = perScreen
        self.perArchive = perArchive
        self.isEnforced = isEnforced
    }

    /// Android's recommendation and limit: 50 KB a screen, 1 MB an archive; warnings only.
    public static let recommended = SizeBudget(perScreen: 50 * 1024, perArchive: 1024 * 1024)

    /// No limits.
    public static let unlimited = SizeBudget(perScreen: nil, perArchive: nil)

    /// The warnings for a save's screen sizes and archive size. The report's list of sizes is
    /// made only when a warning needs it: most saves are within budget.
    func warnings(for report: SaveReport, archiveBytes: Int, key: StoreKey) -> [String] {
        var warnings: [String] = []
        if let perScreen, report.largestStateSize > perScreen {
            for size in report.stateSizes where size.byteCount > perScreen {
                warnings.append(
                    "\(size.path) (\(size.typeKey)) saves \(size.byteCount.grouped) bytes, over the per-screen budget of \(perScreen.grouped): save a database key, not the data"
                )
            }
        }
        if let perArchive, archiveBytes > perArchive {
            let largest = report.stateSizes.sorted { $0.byteCount > $1.byteCount }.prefix(3)
                .map { "\($0.path) (\($0.byteCount.grouped) bytes)" }.joined(separator: ", ")
            warnings.append(
                "archive \(key) is \(archiveBytes.grouped) bytes, over its budget of \(perArchive.grouped); largest screens: \(largest)"
            )
        }
        return warnings
    }
}

extension Int {
    /// `1,204,332`.
    var grouped: String {
        let digits = String(magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }
}
