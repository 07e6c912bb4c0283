import Foundation

/// The migrations that take one screen type's state from a saved version to the
/// current one, checked end to end before any of them runs.
///
/// From the saved version, each step is the migration that reads the version
/// reached so far; a step made with `StateMigration(from:_:to:_:)` reaches the
/// next version, one that makes the current `State` ends the chain.
struct StateMigrationChain<State> {
    /// Why a saved version has no chain to the current one.
    enum Failure: Error, Equatable {
        /// No migration reads the saved version, or it is newer than the current one.
        case noMigration
        /// The chain breaks on the way: one line that names the step.
        case broken(String)
    }

    /// A step of the chain that threw.
    struct StepFailure: Error {
        /// The step, as `1 → 2`.
        let step: String
        /// What it threw.
        let underlying: any Error
    }

    /// The steps, oldest first.
    let steps: [StateMigration<State>]
    /// The version the chain ends at.
    let currentVersion: Int

    private init(steps: [StateMigration<State>], currentVersion: Int) {
        self.steps = steps
        self.currentVersion = currentVersion
    }

    /// Finds the chain from a saved version to the current one, and checks that
    /// each step reads what the step before it makes and the last makes `State`.
    static func from(
        _ version: Int, to current: Int, in migrations: [StateMigration<State>]
    ) -> Result<Self, Failure> {
        var steps: [StateMigration<State>] = []
        var reached = version
        while reached < current {
            guard let step = migrations.first(where: { $0.fromVersion == reached }) else {
                guard let last = steps.last else { return .failure(.noMigration) }
                return .failure(
                    .broken("no migration from version \(reached) follows step \(name(of: last, current))"))
            }
            if let last = steps.last, let made = last.output, made != step.input {
                return .failure(
                    .broken(
                        "step \(name(of: step, current)) reads \(step.input.name), "
                            + "but step \(name(of: last, current)) makes \(made.name)"))
            }
            steps.append(step)
            reached = step.toVersion ?? current
        }
        guard let last = steps.last else { return .failure(.noMigration) }
        let state = MigrationShape(State.self)
        if let made = last.output, made != state {
            return .failure(
                .broken("step \(name(of: last, current)) makes \(made.name), not the current \(state.name)"))
        }
        return .success(Self(steps: steps, currentVersion: current))
    }

    /// Decodes the saved state as the first step reads it and runs every step.
    ///
    /// - Throws: ``StepFailure`` naming the step that threw, or whose saved
    ///   input did not decode.
    func migrate(_ data: Data, with decoder: ArchiveDecoder) throws(StepFailure) -> State {
        var value: Any?
        for step in steps {
            do {
                let input = try value ?? step.decode(decoder, data)
                value = try step.migrate(input)
            } catch {
                throw StepFailure(step: Self.name(of: step, currentVersion), underlying: error)
            }
        }
        guard let state = value as? State else {
            let step = steps.last.map { Self.name(of: $0, currentVersion) } ?? "none"
            throw StepFailure(step: step, underlying: MigrationShape.Mismatch(expected: MigrationShape(State.self)))
        }
        return state
    }

    /// What is wrong with a screen type's migrations, for its declaration.
    ///
    /// Two migrations from one version, and one from the current version or a
    /// newer one, are errors: the list does not say what was meant. A chain that
    /// breaks is a warning: only the states saved at the versions before the
    /// break are skipped. Each break is reported once, from the oldest version
    /// that reaches it.
    static func findings(
        in migrations: [StateMigration<State>], currentVersion current: Int
    ) -> [MigrationFinding] {
        var findings: [MigrationFinding] = []
        var versions: Set<Int> = []
        for migration in migrations {
            let version = migration.fromVersion
            if version >= current {
                findings.append(
                    (
                        .error, .invalidMigrationVersion,
                        "has a state migration from version \(version), but its stateVersion is \(current): "
                            + "migrations read older versions"
                    ))
            } else if !versions.insert(version).inserted {
                findings.append((.error, .duplicateMigration, "has two state migrations from version \(version)"))
            }
        }
        var breaks: Set<String> = []
        for version in versions.sorted() {
            guard case .failure(.broken(let problem)) = from(version, to: current, in: migrations),
                breaks.insert(problem).inserted
            else { continue }
            findings.append(
                (
                    .warning, .brokenMigrationChain,
                    "cannot migrate a state saved at version \(version) to version \(current): \(problem)"
                ))
        }
        return findings
    }

    /// A step as `1 → 2`, or `1 → 3` for one that makes the current version 3.
    private static func name(of step: StateMigration<State>, _ current: Int) -> String {
        "\(step.fromVersion) → \(step.toVersion ?? current)"
    }
}

/// One thing wrong with a screen type's migrations; the message follows the type's name.
typealias MigrationFinding = (
    severity: DeclarationDiagnostic.Severity, code: DeclarationDiagnostic.Code, message: String
)

extension RestorableScreen {
    /// What is wrong with ``stateMigrations``, for the declaration; see
    /// `StateMigrationChain.findings(in:currentVersion:)`.
    static var stateMigrationFindings: [MigrationFinding] {
        StateMigrationChain<State>.findings(in: stateMigrations, currentVersion: stateVersion)
    }
}
