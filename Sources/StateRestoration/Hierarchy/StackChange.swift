/// One step that turns what a navigation stack's UI shows into what the tree holds.
///
/// ``changes(from:to:)`` compares a stack's screens before and after a change of
/// the tree by node identity (``ScreenNode/ID``), as swift-navigation's
/// `NavigationStackController` compares its path, and says what a
/// `UINavigationController` mirror does: push what was opened, pop to what the
/// user went back to, or set the whole stack when neither says it. Editing a
/// screen's state keeps its identity, so it is no change.
///
/// A mirror keeps one view controller per identity and applies the steps in order:
///
/// ```swift
/// let new = tree[stack]?.children.map(\.id) ?? []
/// let changes = StackChange.changes(from: shown, to: new)
/// for (index, change) in changes.enumerated() {
///     let animated = index == changes.count - 1  // one transition per update
///     switch change {
///     case .push(let ids) where ids.count == 1:
///         navigationController.pushViewController(controller(for: ids[0]), animated: animated)
///     case .push(let ids):
///         let pushed = ids.map(controller(for:))
///         navigationController.setViewControllers(
///             navigationController.viewControllers + pushed, animated: animated)
///     case .popTo(let id):
///         navigationController.popToViewController(controller(for: id), animated: animated)
///     case .set(let ids):
///         navigationController.setViewControllers(ids.map(controller(for:)), animated: animated)
///     }
/// }
/// shown = new
/// ```
public enum StackChange: Hashable, Sendable {
    /// Push these screens, in order, above the top.
    case push([ScreenNode.ID])
    /// Pop every screen above this one, which stays on the stack.
    case popTo(ScreenNode.ID)
    /// Replace the whole stack with these screens, bottom first.
    case set([ScreenNode.ID])

    /// The fewest steps that turn the stack `old` into the stack `new`.
    ///
    /// Both lists are bottom first and hold distinct identities, as a stack's nodes
    /// do. The steps are, by how the lists share their bottom screens:
    ///
    /// - the same list: no steps;
    /// - screens added above all of `old`: one ``push(_:)``;
    /// - screens removed from the top: one ``popTo(_:)`` to the new top;
    /// - some removed from the top and others pushed, when more than the root is
    ///   kept: ``popTo(_:)`` the last screen kept, then ``push(_:)``;
    /// - anything else (a different root, only the root kept while other screens
    ///   replace the rest, `old` or `new` empty, a screen of `old` moved or removed
    ///   from under others): one ``set(_:)``.
    ///
    /// ```swift
    /// StackChange.changes(from: [search, product], to: [search, product, review])
    /// // [.push([review])]
    /// StackChange.changes(from: [search, product, review], to: [search, product, other])
    /// // [.popTo(product), .push([other])]
    /// StackChange.changes(from: [search, product, review], to: [search, review])
    /// // [.set([search, review])]
    /// ```
    ///
    /// - Parameters:
    ///   - old: The stack's identities as the UI shows them, root first.
    ///   - new: The stack's identities as the tree now holds them, root first.
    /// - Returns: The steps to apply in order; empty when the stacks are the same.
    public static func changes(from old: [ScreenNode.ID], to new: [ScreenNode.ID]) -> [StackChange] {
        guard old != new else { return [] }
        let kept = zip(old, new).prefix { $0 == $1 }.count
        let pushed = new[kept...]
        // A screen of `old` that comes back above the kept ones has moved: only a set says that.
        if !pushed.isEmpty, !Set(old).isDisjoint(with: pushed) { return [.set(new)] }
        switch (kept, pushed.isEmpty) {
        case (0, _):
            return [.set(new)]
        case (old.count, false):
            return [.push(Array(pushed))]
        case (_, true):
            return [.popTo(new[kept - 1])]
        case (1, false):
            return [.set(new)]
        default:
            return [.popTo(new[kept - 1]), .push(Array(pushed))]
        }
    }
}
