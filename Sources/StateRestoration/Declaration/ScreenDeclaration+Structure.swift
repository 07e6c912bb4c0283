extension ScreenDeclaration {
    /// Whether two declarations declare the same hierarchy: the same elements, with the
    /// same identifiers, kinds, screen types, selected tabs, pushable and presentable
    /// screens. Where the elements were declared and the initial screens' states are
    /// not compared, so two declarations made by one function are the same.
    func hasSameStructure(as other: ScreenDeclaration) -> Bool {
        DeclarationNode.sameStructure(elements, other.elements)
    }
}

extension DeclarationNode {
    /// Whether two lists of nodes are, element by element, of the same structure.
    static func sameStructure(_ lhs: [DeclarationNode], _ rhs: [DeclarationNode]) -> Bool {
        lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0.hasSameStructure(as: $1) }
    }

    /// Whether the node and everything under it declares what `other` declares.
    func hasSameStructure(as other: DeclarationNode) -> Bool {
        identifier == other.identifier && kind == other.kind
            && screenType.map(ObjectIdentifier.init) == other.screenType.map(ObjectIdentifier.init)
            && initialSelection == other.initialSelection
            && Self.sameStructure(children, other.children) && Self.sameStructure(pushable, other.pushable)
            && Self.sameStructure(presentable, other.presentable)
    }
}
