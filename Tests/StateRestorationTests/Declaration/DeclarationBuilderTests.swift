import StateRestoration
import TestScreens
import Testing

@Suite struct DeclarationBuilderTests {
    enum Layout { case compact, regular, wide }

    /// The identifiers of the root's tabs in the initial tree.
    private func tabIdentifiers(_ declaration: ScreenDeclaration) throws -> [String?] {
        try declaration.makeInitialTree().root.children.map(\.identifier)
    }

    @Test("if without else includes its element only when the condition holds", arguments: [true, false])
    func optionalElement(_ drafts: Bool) throws {
        let identifiers = try tabIdentifiers(Shop.declaration(drafts: drafts))
        #expect(identifiers.contains("draft") == drafts)
        #expect(identifiers.contains("settings"))
    }

    @Test("if/else and switch take exactly one branch", arguments: [Layout.compact, .regular, .wide])
    func eitherBranches(_ layout: Layout) throws {
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                if layout == .compact {
                    Screen(SettingsScreen(), id: "compact-settings")
                } else {
                    Screen(SettingsScreen(), id: "full-settings")
                }
                switch layout {
                case .compact: Screen(DraftScreen(), id: "one")
                case .regular: Screen(DraftScreen(), id: "two")
                case .wide: Screen(DraftScreen(), id: "three")
                }
            }
        }
        let expected: [String?] =
            switch layout {
            case .compact: ["compact-settings", "one"]
            case .regular: ["full-settings", "two"]
            case .wide: ["full-settings", "three"]
            }
        #expect(try tabIdentifiers(declaration) == expected)
    }

    @Test("for loops declare one element per item, and availability checks keep their branch")
    func loopsAndAvailability() throws {
        let accounts = ["alice", "bob", "carol"]
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                for account in accounts {
                    Screen(SettingsScreen(state: .init(notifications: false, region: account)), id: account)
                }
                if #available(macOS 10.15, iOS 13, *) {
                    Screen(DraftScreen(), id: "modern")
                }
            }
        }
        let tree = try declaration.makeInitialTree()
        #expect(tree.root.children.map(\.identifier) == ["alice", "bob", "carol", "modern"])
        #expect(tree.screen(SettingsScreen.self, at: "bob")?.state.region == "bob")
        #expect(declaration.diagnostics.isEmpty)
    }

    @Test("a bare screen type in a stack is pushable under its type key")
    func bareTypeIsPushable() throws {
        let declaration = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) {
                ProductScreen.self
            }
        }
        var tree = try declaration.makeInitialTree()
        try tree.push(ProductScreen("p-1"), onto: "browse")
        #expect(tree.restorablePaths == ["browse", "browse/search#0", "browse/product#1"])
    }

    @Test("the initial tree selects the declared tab and holds each stack's root only")
    func initialTree() throws {
        let tree = try Shop.declaration().makeInitialTree()
        #expect(tree.root.kind == .tabs)
        #expect(tree.root.selectedChild?.identifier == "browse")
        #expect(tree.node(at: "tabs/browse")?.children.count == 1)
        #expect(tree.screen(SearchScreen.self, at: "tabs/browse/search#0")?.state == SearchScreen.State())
        #expect(tree.node(at: "tabs/split")?.children.isEmpty == true)
    }

    @Test("elements remember the file and line that declared them")
    func sourceLocations() {
        let line = #line + 3
        let declaration = ScreenDeclaration {
            Tabs("tabs") {
                Screen(SettingsScreen(), id: "settings")
            }
        }
        let settings = declaration.root?.children.first
        #expect(settings?.location.line == line)
        #expect(settings?.location.fileID.hasSuffix("DeclarationBuilderTests.swift") == true)
    }
}
