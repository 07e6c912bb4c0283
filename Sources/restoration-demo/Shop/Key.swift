/// A key the user pressed: what the shop app reacts to, in the terminal and in
/// the scripted session alike.
enum Key: Equatable, Sendable {
    case character(Character)
    case up, down, left, right
    case enter, escape, backspace
    /// Tab, and Shift-Tab.
    case tab, backTab
    /// Ctrl-Q or Ctrl-D: quit from any screen, even one with a text field.
    case quit

    /// The key named in the scripted session's line protocol (`press down`).
    init?(name: String) {
        switch name {
        case "up": self = .up
        case "down": self = .down
        case "left": self = .left
        case "right": self = .right
        case "enter": self = .enter
        case "escape": self = .escape
        case "backspace": self = .backspace
        case "tab": self = .tab
        case "backtab": self = .backTab
        case "quit": self = .quit
        default: return nil
        }
    }
}
