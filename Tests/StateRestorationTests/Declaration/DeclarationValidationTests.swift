import StateRestoration
import TestScreens
import Testing

@Suite struct DeclarationValidationTests {
    @Test("the shop declaration has no findings but the scratch tab, which has no identifier")
    func shopIsValid() {
        let declaration = Shop.declaration()
        #expect(declaration.errors.isEmpty)
        #expect(declaration.warnings.isEmpty)
    }

    @Test("seed 003: two web views named webview under one stack are an error naming the full path")
    func duplicateSiblingIdentifiers() throws {
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                Stack("browse", root: SearchScreen()) {
                    Screen(ProductScreen.self, id: "webview")
                    Screen(ReviewScreen.self, id: "webview")
                }
            }
        }
        let error = try #require(declaration.errors.first)
        #expect(declaration.errors.count == 1)
        #expect(error.code == .duplicateIdentifier)
        #expect(error.message == "tabs/browse has two children named webview")
        #expect(error.path == "tabs/browse/webview")
        #expect(throws: DeclarationError.self) { try declaration.makeInitialTree() }
    }

    @Test("a screen with an identifier under an ancestor without one is reported as never restored")
    func missingAncestorIdentifier() throws {
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                Stack(nil, root: SearchScreen()) {
                    Screen(ProductScreen.self, id: "note")
                }
            }
        }
        let messages = declaration.warnings.map(\.message)
        #expect(declaration.errors.isEmpty)
        #expect(
            messages.contains("tabs/<stack>/note will never be restored: tabs/<stack> has no restoration identifier"))
        #expect(declaration.warnings.allSatisfy { $0.code == .unreachableIdentifier })
    }

    @Test("a modal under an unidentified screen is reported with the screen's type in the path")
    func missingAncestorIdentifierOnScreen() {
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                Screen(ScratchScreen())
                    .presents { Screen(ComposeScreen.self, id: "note") }
            }
        }
        #expect(
            declaration.warnings.map(\.message) == [
                "tabs/<scratch>/note will never be restored: tabs/<scratch> has no restoration identifier"
            ])
    }

    @Test("identifiers with / or # or nothing in them are errors", arguments: ["", "a/b", "a#1"])
    func invalidIdentifiers(_ identifier: String) throws {
        let declaration = ScreenDeclaration {
            Tabs("tabs") { Screen(SettingsScreen(), id: identifier) }
        }
        let error = try #require(declaration.errors.first)
        #expect(error.code == .invalidIdentifier)
        #expect(error.message.contains("\"\(identifier)\""))
    }

    @Test("two screen types with one type key are an error")
    func duplicateTypeKeys() throws {
        struct OtherSettings: RestorableScreen {
            static let typeKey: ScreenTypeKey = "settings"
            struct State: Codable, Sendable, Equatable { var x = 0 }
            var state = State()
        }
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                Screen(SettingsScreen(), id: "settings")
                Screen(OtherSettings(), id: "other")
            }
        }
        let error = try #require(declaration.errors.first)
        #expect(error.code == .duplicateTypeKey)
        #expect(error.message.contains("both use the type key settings"))
    }

    @Test("a tab declared by type only cannot be part of a fresh launch")
    func missingInitialScreen() throws {
        let declaration = ScreenDeclaration {
            Tabs("tabs") { Screen(SettingsScreen.self, id: "settings") }
        }
        let error = try #require(declaration.errors.first)
        #expect(error.code == .missingInitialScreen)
        #expect(error.path == "tabs/settings")
    }

    @Test("a presented stack or tabs needs instances for what it shows first; a container cannot hold either")
    func presentedStacksAndContainerChildren() throws {
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                Screen(SettingsScreen(), id: "settings")
                    .presents {
                        Stack("modal", root: Screen(ComposeScreen.self, id: "compose")) {
                            Screen(ReviewScreen.self, id: "review")
                        }
                        Tabs("picker") { Screen(DraftScreen.self, id: "drafts") }
                        Container(SplitScreen(), id: "split") { Screen(MailboxScreen.self, id: "mailbox") }
                    }
                Container(SplitScreen(), id: "panes") {
                    Stack("nested", root: SearchScreen())
                }
            }
        }
        let modal: String =
            "missing-initial-screen tabs/settings/modal/compose: tabs/settings/modal/compose is shown when "
            + "tabs/settings presents modal as declared but ComposeScreen was declared by type only; "
            + "declare it with an instance"
        let picker: String =
            "missing-initial-screen tabs/settings/picker/drafts: tabs/settings/picker/drafts is shown when "
            + "tabs/settings presents picker as declared but DraftScreen was declared by type only; "
            + "declare it with an instance"
        let nested: String =
            "invalid-child tabs/panes/nested: tabs/panes declares a stack as a child; "
            + "a custom container's children are screens and containers"
        let found: [String] = declaration.errors.map { error in
            "\(error.code) \(error.path): \(error.message)"
        }
        #expect(found == [modal, picker, nested])
        // The pushed review screen and the presented container are made by the app: no instance needed.
    }

    @Test("a declaration needs exactly one root")
    func rootCount() {
        let none = ScreenDeclaration {}
        let two = ScreenDeclaration {
            Screen(SettingsScreen(), id: "a")
            Screen(DraftScreen(), id: "b")
        }
        #expect(none.errors.map(\.code) == [.rootCount])
        #expect(two.errors.map(\.code) == [.rootCount])
        #expect(two.errors.first?.message.contains("found 2: a, b") == true)
    }

    @Test("empty tabs, an unknown initial selection and a pushable stack are errors")
    func structuralErrors() {
        let empty = ScreenDeclaration { Tabs("tabs") {} }
        let unknownSelection = ScreenDeclaration {
            Tabs("tabs", selected: "missing") { Screen(SettingsScreen(), id: "settings") }
        }
        let pushedStack = ScreenDeclaration {
            Stack("outer", root: SearchScreen()) {
                Stack("inner", root: SettingsScreen())
            }
        }
        #expect(empty.errors.map(\.code) == [.emptyTabs])
        #expect(unknownSelection.errors.map(\.code) == [.unknownSelection])
        #expect(pushedStack.errors.map(\.code) == [.invalidPushable])
    }

    @Test("a declaration with errors is reported before anything is saved or read")
    func errorsStopTheCoordinator() async throws {
        let store = InMemoryStore()
        let invalid = ScreenDeclaration {
            Tabs("tabs") {
                Screen(SettingsScreen(), id: "same")
                Screen(DraftScreen(), id: "same")
            }
        }
        let valid = Shop.declaration()
        try await RestorationCoordinator(screens: valid, store: store).save(try valid.makeInitialTree())
        let before = try store.read(.main)
        let coordinator = RestorationCoordinator(screens: invalid, store: store)
        await #expect(throws: DeclarationError.self) { try await coordinator.launch() }
        await #expect(throws: DeclarationError.self) { try await coordinator.save(try valid.makeInitialTree()) }
        #expect(try store.read(.main) == before)
    }

    @Test("two migrations from one version, and one from the current version, are errors naming the screen type")
    func invalidMigrations() throws {
        struct Old: Decodable { var value: Int }
        struct Counter: RestorableScreen {
            static let stateVersion = 2
            struct State: Codable, Sendable, Equatable { var value = 0 }
            static let stateMigrations = [
                StateMigration<State>(from: 1, Old.self) { State(value: $0.value) },
                StateMigration<State>(from: 1, Old.self) { State(value: $0.value + 1) },
                StateMigration<State>(from: 2, Old.self) { State(value: $0.value) },
            ]
            var state = State()
        }
        let declaration = ScreenDeclaration { Tabs("tabs") { Screen(Counter(), id: "counter") } }
        let found: [String] = declaration.errors.map { "\($0.code) \($0.path): \($0.message)" }
        #expect(
            found == [
                "duplicate-migration tabs/counter: tabs/counter: Counter has two state migrations from version 1",
                "invalid-migration-version tabs/counter: tabs/counter: Counter has a state migration from version 2, "
                    + "but its stateVersion is 2: migrations read older versions",
            ])
        #expect(throws: DeclarationError.self) { try declaration.makeInitialTree() }
    }

    @Test("a chain with a gap is one warning, from the oldest version that reaches the gap; a whole chain is none")
    func brokenMigrationChain() {
        struct V1: Decodable { var value: Int }
        struct V2: Decodable { var value: Int }
        struct V3: Decodable { var value: Int }
        struct Gap: RestorableScreen {
            static let stateVersion = 4
            struct State: Codable, Sendable, Equatable { var value = 0 }
            static let stateMigrations: [StateMigration<State>] = [
                StateMigration(from: 1, V1.self, to: V2.self) { V2(value: $0.value) },
                StateMigration(from: 2, V2.self, to: V3.self) { V3(value: $0.value) },
            ]
            var state = State()
        }
        struct Whole: RestorableScreen {
            static let stateVersion = 4
            typealias State = Gap.State
            static let stateMigrations =
                Gap.stateMigrations + [StateMigration(from: 3, V3.self, to: State.self) { State(value: $0.value) }]
            var state = State()
        }
        let gap = ScreenDeclaration { Tabs("tabs") { Screen(Gap(), id: "gap") } }
        #expect(gap.errors.isEmpty)
        #expect(
            gap.warnings.map(\.message) == [
                "tabs/gap: Gap cannot migrate a state saved at version 1 to version 4: "
                    + "no migration from version 3 follows step 2 → 3"
            ])
        #expect(gap.warnings.map(\.code) == [.brokenMigrationChain])
        #expect(ScreenDeclaration { Tabs("tabs") { Screen(Whole(), id: "whole") } }.diagnostics.isEmpty)
    }
}
