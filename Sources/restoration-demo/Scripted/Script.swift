/// What the scripted session's user does in the shop app, step by step.
struct ScriptStep {
    /// The keys, as the output shows them.
    var keys: String
    /// The commands sent to the app process (``AppProcess``).
    var commands: [String]
    /// What the keys do, as the output says it.
    var effect: String

    /// The session: the settings tab, then a search, a product, and a message
    /// left half written, which is on screen when the app goes to the background.
    static let session = [
        ScriptStep(
            keys: "→ ↓ ←", commands: ["press right", "press down", "press left"],
            effect: "Settings: prices in USD; back to Shop"),
        ScriptStep(
            keys: "\"oat milk\" Tab Enter", commands: ["type oat milk", "press tab", "press enter"],
            effect: "a search, organic only; its results"),
        ScriptStep(
            keys: "↓ Enter +", commands: ["press down", "press enter", "type +"],
            effect: "the 2nd result's detail; quantity 2"),
        ScriptStep(
            keys: "m \"Is the carton recycl\"", commands: ["type m", "type Is the carton recycl"],
            effect: "a message to the shop, half written"),
    ]
}
