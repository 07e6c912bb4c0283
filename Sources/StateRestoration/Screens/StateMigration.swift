import Foundation

/// Turns a state saved by an older version of a screen's `State` into the
/// current one, in ordinary Swift.
///
/// UIKit, SwiftUI, Flutter and Android drop a screen's saved state when its
/// shape changes between app versions. Here a screen raises its
/// ``RestorableScreen/stateVersion`` and keeps the old shape as a Decodable
/// type with a migration from it:
///
/// ```swift
/// struct ProductScreen: RestorableScreen {
///     static let stateVersion = 2
///     struct StateV1: Decodable { var productID: Int }
///     struct State: Codable, Sendable, Equatable { var productID: String; var quantity: Int }
///     static let stateMigrations = [
///         StateMigration<State>(from: 1, StateV1.self) { v1 in State(productID: "p-\(v1.productID)", quantity: 1) }
///     ]
///     var state: State
/// }
/// ```
///
/// A field added as an optional, or with a default in a custom `init(from:)`,
/// needs no migration; a removed field is ignored. A state saved with a version
/// that has no migration, or with a newer version than the running build, skips
/// the screen with a diagnostic.
public struct StateMigration<State>: Sendable {
    /// The saved State version this migration reads.
    public let fromVersion: Int
    let migrate: @Sendable (ArchiveDecoder, Data) throws -> State

    /// Creates a migration from an older version's shape.
    ///
    /// - Parameters:
    ///   - version: The State version the old shape was saved with.
    ///   - old: The old shape, as a Decodable type.
    ///   - migrate: Makes the current State from the decoded old one; may throw to
    ///     skip the screen.
    public init<Old: Decodable & SendableMetatype>(
        from version: Int, _ old: Old.Type, _ migrate: @escaping @Sendable (Old) throws -> State
    ) {
        self.fromVersion = version
        self.migrate = { decoder, data in try migrate(try decoder.decode(Old.self, from: data)) }
    }
}
