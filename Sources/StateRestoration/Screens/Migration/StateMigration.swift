import Foundation

/// One step that turns a state saved by an older version of a screen's `State`
/// into a newer one, in ordinary Swift; the steps of a screen chain up to the
/// current version.
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
/// When the shape changes again, the step written for the last change stays as
/// it is: the migration that made the current `State` from version 1 now makes
/// the version 2 shape, kept under its own name, and one new step goes from
/// version 2 to the current `State`. A state saved at version 1 then runs both
/// steps at launch, one saved at version 2 only the second:
///
/// ```swift
/// struct ProductScreen: RestorableScreen {
///     static let stateVersion = 3
///     struct StateV1: Decodable { var productID: Int }
///     struct StateV2: Decodable { var productID: String; var quantity: Int }
///     struct State: Codable, Sendable, Equatable { var productID: String; var quantity: Int; var note: String }
///     static let stateMigrations: [StateMigration<State>] = [
///         StateMigration(from: 1, StateV1.self, to: StateV2.self) { v1 in    // 1 → 2
///             StateV2(productID: "p-\(v1.productID)", quantity: 1)
///         },
///         StateMigration(from: 2, StateV2.self) { v2 in                      // 2 → 3, the current State
///             State(productID: v2.productID, quantity: v2.quantity, note: "")
///         },
///     ]
///     var state: State
/// }
/// ```
///
/// A migration made with ``init(from:_:_:)`` produces the current `State` and
/// ends the chain, from whichever version it reads; one made with
/// ``init(from:_:to:_:)`` goes one version up, to the shape the migration from
/// the next version reads. The launch report says
/// `browse/product#1 migrated from State version 1 to 3` either way.
///
/// A field added as an optional, or with a default in a custom `init(from:)`,
/// needs no migration; a removed field is ignored. A state saved with a version
/// that has no migration, or with a newer version than the running build, skips
/// the screen with ``SkippedScreen/Reason/stateVersionMismatch``; so does one
/// whose chain is broken (no step from a version the chain reaches, or a step
/// that reads another type than the step before it makes), with a message that
/// names the step. The declaration reports a broken chain as a warning, and two
/// migrations from one version, or one from the current version or a newer one,
/// as errors.
public struct StateMigration<State>: Sendable {
    /// The saved State version this migration reads.
    public let fromVersion: Int
    /// The version this migration makes: `fromVersion + 1`, or nil for the
    /// current `State`, whatever version that is.
    let toVersion: Int?
    /// The type this migration reads.
    let input: MigrationShape
    /// The type this migration makes; nil for the current `State`.
    let output: MigrationShape?
    /// Decodes the shape this migration reads from a state saved at ``fromVersion``.
    let decode: @Sendable (ArchiveDecoder, Data) throws -> Any
    /// Makes the next shape from the one this migration reads.
    let migrate: @Sendable (Any) throws -> Any

    /// Creates a migration that makes the current `State` from an older
    /// version's shape, which ends the chain.
    ///
    /// A state saved at `version` is decoded as `old` and migrated; so is the
    /// value the migration from the version before makes, when one goes to
    /// `version` with ``init(from:_:to:_:)``.
    ///
    /// ```swift
    /// StateMigration<State>(from: 2, StateV2.self) { v2 in
    ///     State(productID: v2.productID, quantity: v2.quantity, note: "")
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - version: The State version the old shape was saved with.
    ///   - old: The old shape, as a Decodable type.
    ///   - migrate: Makes the current State from the decoded old one; may throw to
    ///     skip the screen.
    public init<Old: Decodable & SendableMetatype>(
        from version: Int, _ old: Old.Type, _ migrate: @escaping @Sendable (Old) throws -> State
    ) {
        self.init(from: version, to: nil, output: nil, old, migrate)
    }

    /// Creates a migration that makes the shape of the next version from an older
    /// one, a step of a chain.
    ///
    /// The migration from `version + 1` continues the chain: it reads `new`, or,
    /// when `version + 1` is the current ``RestorableScreen/stateVersion``, `new`
    /// must be the current `State`.
    ///
    /// ```swift
    /// StateMigration<State>(from: 1, StateV1.self, to: StateV2.self) { v1 in
    ///     StateV2(productID: "p-\(v1.productID)", quantity: 1)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - version: The State version the old shape was saved with.
    ///   - old: The old shape, as a Decodable type.
    ///   - new: The shape version `version + 1` saved.
    ///   - migrate: Makes the next shape from the decoded old one; may throw to skip
    ///     the screen.
    public init<Old: Decodable & SendableMetatype, New: Decodable>(
        from version: Int, _ old: Old.Type, to new: New.Type, _ migrate: @escaping @Sendable (Old) throws -> New
    ) {
        self.init(from: version, to: version + 1, output: MigrationShape(New.self), old, migrate)
    }

    private init<Old: Decodable & SendableMetatype, New>(
        from version: Int, to next: Int?, output: MigrationShape?, _ old: Old.Type,
        _ migrate: @escaping @Sendable (Old) throws -> New
    ) {
        self.fromVersion = version
        self.toVersion = next
        self.input = MigrationShape(Old.self)
        self.output = output
        self.decode = { decoder, data in try decoder.decode(Old.self, from: data) }
        self.migrate = { value in
            // The chain checks each step's input against the step before it, so this only guards.
            guard let old = value as? Old else { throw MigrationShape.Mismatch(expected: MigrationShape(Old.self)) }
            return try migrate(old)
        }
    }
}

/// A type a migration reads or makes, compared by identity and named in messages.
struct MigrationShape: Sendable, Equatable {
    let id: ObjectIdentifier
    /// The type's name with the types it is nested in (`ProductScreen.StateV2`),
    /// without its module: a shape is often a nested `State`.
    let name: String

    init<T>(_ type: T.Type) {
        self.id = ObjectIdentifier(type)
        // A private or local type's context reads `(unknown context at $10a3f0)`.
        var name = String(reflecting: type).replacingOccurrences(
            of: #"\(unknown context at \$[0-9a-f]+\)\."#, with: "", options: .regularExpression)
        if let dot = name.firstIndex(of: "."), !name[..<dot].contains(where: { "<(".contains($0) }) {
            name.removeSubrange(...dot)
        }
        self.name = name
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }

    /// A value of another type reached a migration.
    struct Mismatch: Error, CustomStringConvertible {
        let expected: MigrationShape
        var description: String { "the value passed on is not a \(expected.name)" }
    }
}
