/// The extra time the platform gives an app to finish work after it leaves the
/// foreground: UIKit's `beginBackgroundTask(withName:expirationHandler:)` and
/// `endBackgroundTask(_:)`.
///
/// A ``RestorationModel`` asks for it around each save it starts for
/// ``AppPhase/background`` and ``AppPhase/terminate``, and ends it when the save
/// returns. When the time runs out first, the model cancels the save, which stops
/// before the archive is written: the previous archive stays whole, and the save
/// throws ``RestorationError/Code/cancelled``. The model ends the background time
/// from the expiration call itself, as the platform requires.
///
/// On iOS:
///
/// ```swift
/// struct UIKitBackgroundTime: BackgroundTime {
///     func begin(_ name: String, expiration: @escaping @MainActor () -> Void) -> Int? {
///         let task = UIApplication.shared.beginBackgroundTask(withName: name) { expiration() }
///         return task == .invalid ? nil : task.rawValue
///     }
///     func end(_ task: Int) {
///         UIApplication.shared.endBackgroundTask(UIBackgroundTaskIdentifier(rawValue: task))
///     }
/// }
/// ```
@MainActor
public protocol BackgroundTime {
    /// Asks for background time.
    ///
    /// - Parameters:
    ///   - name: What the time is for, for the platform's debugging tools.
    ///   - expiration: Called on the main actor when the time runs out before
    ///     ``end(_:)``; the model stops its save and ends the time in it.
    /// - Returns: The granted time's identifier, or nil when none was granted (the
    ///   save runs anyway).
    func begin(_ name: String, expiration: @escaping @MainActor () -> Void) -> Int?
    /// Gives the background time back.
    ///
    /// - Parameter task: The identifier ``begin(_:expiration:)`` returned.
    func end(_ task: Int)
}
