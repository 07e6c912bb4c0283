/// Checks a declaration and collects its diagnostics and screen types.
struct DeclarationValidation {
    private(set) var diagnostics: [DeclarationDiagnostic] = []
    private(set) var screenTypes: [ScreenTypeKey: any RestorableScreen.Type] = [:]

    init(elements: [DeclarationNode]) {
        if elements.count != 1 {
            let found =
                elements.isEmpty ? "none" : "\(elements.count): " + elements.map(\.displayName).joined(separator: ", ")
            report(
                .error, .rootCount, path: [], location: elements.dropFirst().first?.location,
                "a screen declaration has exactly one root element; found \(found)")
        }
        for element in elements {
            let path = IdentifierPath([element.displayName])
            check(
                element, path: path, unidentifiedAncestor: element.identifier == nil ? path : nil,
                shown: "is shown on a fresh launch")
        }
        diagnostics.sort { ($0.severity == .error ? 0 : 1) < ($1.severity == .error ? 0 : 1) }
    }

    private mutating func report(
        _ severity: DeclarationDiagnostic.Severity, _ code: DeclarationDiagnostic.Code, path: IdentifierPath,
        location: DeclarationLocation?, _ message: String
    ) {
        diagnostics.append(DeclarationDiagnostic(severity, code, path: path, message: message, location: location))
    }

    /// Checks one element and everything under it.
    /// - Parameters:
    ///   - unidentifiedAncestor: The display path of the nearest element at or above
    ///     this one without an identifier.
    ///   - shown: When the element is made from its declaration alone, so that it needs an
    ///     instance (`"is shown on a fresh launch"`); nil when the app makes it.
    private mutating func check(
        _ node: DeclarationNode, path: IdentifierPath, unidentifiedAncestor: IdentifierPath?, shown: String?
    ) {
        if let identifier = node.identifier {
            if !DeclarationNode.isValidIdentifier(identifier) {
                report(
                    .error, .invalidIdentifier, path: path, location: node.location,
                    "\(path) has an invalid identifier \"\(identifier)\": identifiers are non-empty and contain no / or #"
                )
            }
            if let ancestor = unidentifiedAncestor {
                report(
                    .warning, .unreachableIdentifier, path: path, location: node.location,
                    "\(path) will never be restored: \(ancestor) has no restoration identifier")
            }
        }
        registerType(of: node, path: path)
        if let shown, node.kind == .screen || node.kind == .container, node.initialScreen == nil {
            let name = node.screenType.map { "\($0)" } ?? "the screen"
            report(
                .error, .missingInitialScreen, path: path, location: node.location,
                "\(path) \(shown) but \(name) was declared by type only; declare it with an instance")
        }
        checkSiblings(of: node, path: path)

        switch node.kind {
        case .tabs:
            if node.children.isEmpty {
                report(.error, .emptyTabs, path: path, location: node.location, "\(path) declares no tabs")
            }
            if let selection = node.initialSelection, !node.children.contains(where: { $0.identifier == selection }) {
                report(
                    .error, .unknownSelection, path: path, location: node.location,
                    "\(path) selects \(selection) at launch, but has no tab named \(selection)")
            }
        case .stack:
            for pushable in node.pushable where pushable.kind == .stack || pushable.kind == .tabs {
                report(
                    .error, .invalidPushable, path: path.appending(pushable.displayName), location: pushable.location,
                    "\(path) declares a \(pushable.kind.rawValue) as pushable; only screens and containers can be pushed"
                )
            }
        case .container:
            // Children come only from addChild, which adds screens and containers.
            for child in node.children where child.kind == .stack || child.kind == .tabs {
                report(
                    .error, .invalidChild, path: path.appending(child.displayName), location: child.location,
                    "\(path) declares a \(child.kind.rawValue) as a child; a custom container's children are screens and containers"
                )
            }
        case .screen:
            break
        }

        func visit(_ children: [DeclarationNode], shown: (DeclarationNode) -> String?) {
            for child in children {
                let childPath = path.appending(child.displayName)
                let ancestor = unidentifiedAncestor ?? (child.identifier == nil ? childPath : nil)
                check(child, path: childPath, unidentifiedAncestor: ancestor, shown: shown(child))
            }
        }
        visit(node.children) { _ in node.kind == .container ? nil : shown }
        visit(node.pushable) { _ in nil }
        // A presented stack or tabs has no screen of its own to present: presentDeclared makes
        // it, and what it shows first, from the declaration.
        visit(node.presentable) { child in
            child.kind == .stack || child.kind == .tabs
                ? "is shown when \(path) presents \(child.displayName) as declared" : nil
        }
    }

    /// Two children of one element with one identifier mix their states up. A
    /// stack's children carry their position, so its root may share
    /// an identifier with a pushable screen, but two pushables may not; presented
    /// elements share the namespace of the element's other children.
    private mutating func checkSiblings(of node: DeclarationNode, path: IdentifierPath) {
        let groups =
            node.kind == .stack
            ? [node.pushable, node.presentable] : [node.children + node.presentable]
        for group in groups {
            var seen: Set<String> = []
            var reported: Set<String> = []
            for child in group {
                guard let identifier = child.identifier else { continue }
                if !seen.insert(identifier).inserted, reported.insert(identifier).inserted {
                    report(
                        .error, .duplicateIdentifier, path: path.appending(identifier), location: child.location,
                        "\(path) has two children named \(identifier)")
                }
            }
        }
    }

    private mutating func registerType(of node: DeclarationNode, path: IdentifierPath) {
        guard let type = node.screenType else { return }
        let key = type.typeKey
        if let existing = screenTypes[key] {
            if ObjectIdentifier(existing) != ObjectIdentifier(type) {
                report(
                    .error, .duplicateTypeKey, path: path, location: node.location,
                    "\(path): \(String(reflecting: type)) and \(String(reflecting: existing)) both use the type key \(key)"
                )
            }
        } else {
            screenTypes[key] = type
            for finding in type.stateMigrationFindings {
                report(
                    finding.severity, finding.code, path: path, location: node.location,
                    "\(path): \(type) \(finding.message)")
            }
        }
    }
}
