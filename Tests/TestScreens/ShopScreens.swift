public import Foundation
public import StateRestoration

// A small shop app's screens, as an app would declare them: the screens every test target
// saves and restores.

/// The search at the root of the browsing stack.
public struct SearchScreen: ProbedScreen {
    /// `search`.
    public static let typeKey: ScreenTypeKey = "search"
    /// What the search saves.
    public struct State: Codable, Sendable, Equatable {
        /// The search text.
        public var query: String
        /// The filters applied.
        public var filters: [String]
        /// How far the results are scrolled.
        public var scrollOffset: Double
        /// Text typed into the search field but not searched for yet.
        public var editingText: String?

        /// Creates a state.
        ///
        /// - Parameters:
        ///   - query: The search text.
        ///   - filters: The filters applied.
        ///   - scrollOffset: How far the results are scrolled.
        ///   - editingText: Text typed but not searched for yet.
        public init(query: String = "", filters: [String] = [], scrollOffset: Double = 0.0, editingText: String? = nil)
        {
            self.query = query
            self.filters = filters
            self.scrollOffset = scrollOffset
            self.editingText = editingText
        }
    }
    /// The screen's state.
    public var state = State()
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?
    /// Text in the search field that the UI has not committed to `state` yet.
    public var liveText: String?
    /// Results the live screen holds in memory; never saved.
    public var cachedResults: [String]?

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State = State()) { self.state = state }

    /// Commits the live text to the state's editing text.
    public mutating func willEncodeRestorableState() {
        if let liveText { state.editingText = liveText }
    }
}

/// A product pushed onto the browsing stack.
public struct ProductScreen: ProbedScreen {
    /// `product`.
    public static let typeKey: ScreenTypeKey = "product"
    /// What the product screen saves.
    public struct State: Codable, Sendable, Equatable {
        /// The product shown.
        public var productID: String
        /// The quantity chosen.
        public var quantity: Int
        /// When the product was viewed.
        public var viewedAt: Date?

        /// Creates a state.
        ///
        /// - Parameters:
        ///   - productID: The product shown.
        ///   - quantity: The quantity chosen.
        ///   - viewedAt: When the product was viewed.
        public init(productID: String, quantity: Int = 1, viewedAt: Date? = nil) {
            self.productID = productID
            self.quantity = quantity
            self.viewedAt = viewedAt
        }
    }
    /// The screen's state.
    public var state: State
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State) { self.state = state }

    /// Creates the screen of a product.
    ///
    /// - Parameters:
    ///   - productID: The product shown.
    ///   - quantity: The quantity chosen.
    public init(_ productID: String, quantity: Int = 1) { self.state = State(productID: productID, quantity: quantity) }
}

/// A review of a product, pushed onto the browsing stack.
public struct ReviewScreen: ProbedScreen {
    /// `review`.
    public static let typeKey: ScreenTypeKey = "review"
    /// What the product-review screen saves.
    public struct State: Codable, Sendable, Equatable {
        /// The product reviewed.
        public var productID: String
        /// The rating given.
        public var rating: Int
        /// The text written so far.
        public var draft: String

        /// Creates a state.
        ///
        /// - Parameters:
        ///   - productID: The product reviewed.
        ///   - rating: The rating given.
        ///   - draft: The text written so far.
        public init(productID: String, rating: Int, draft: String) {
            self.productID = productID
            self.rating = rating
            self.draft = draft
        }
    }
    /// The screen's state.
    public var state: State
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State) { self.state = state }
}

/// A message to the shop, presented over a product.
public struct ComposeScreen: ProbedScreen {
    /// `compose`.
    public static let typeKey: ScreenTypeKey = "compose"
    /// What the compose screen saves.
    public struct State: Codable, Sendable, Equatable {
        /// The recipient.
        public var to: String
        /// The message's text.
        public var body: String
        /// The field being edited.
        public var focusedField: String?

        /// Creates a state.
        ///
        /// - Parameters:
        ///   - to: The recipient.
        ///   - body: The message's text.
        ///   - focusedField: The field being edited.
        public init(to: String = "", body: String = "", focusedField: String? = nil) {
            self.to = to
            self.body = body
            self.focusedField = focusedField
        }
    }
    /// The screen's state.
    public var state = State()
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State = State()) { self.state = state }
}

/// The settings tab.
public struct SettingsScreen: ProbedScreen {
    /// `settings`.
    public static let typeKey: ScreenTypeKey = "settings"
    /// What the settings screen saves.
    public struct State: Codable, Sendable, Equatable {
        /// Whether notifications are on.
        public var notifications: Bool
        /// The shop's region.
        public var region: String

        /// Creates a state.
        ///
        /// - Parameters:
        ///   - notifications: Whether notifications are on.
        ///   - region: The shop's region.
        public init(notifications: Bool = true, region: String = "eu") {
            self.notifications = notifications
            self.region = region
        }
    }
    /// The screen's state.
    public var state = State()
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State = State()) { self.state = state }
}

/// An optional tab with a text being written.
public struct DraftScreen: ProbedScreen {
    /// `draft`.
    public static let typeKey: ScreenTypeKey = "draft"
    /// What the draft screen saves.
    public struct State: Codable, Sendable, Equatable {
        /// The text written so far.
        public var text: String

        /// Creates a state.
        ///
        /// - Parameter text: The text written so far.
        public init(text: String = "") { self.text = text }
    }
    /// The screen's state.
    public var state = State()
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State = State()) { self.state = state }
}

/// A tab declared without an identifier: never saved.
public struct ScratchScreen: ProbedScreen {
    /// `scratch`.
    public static let typeKey: ScreenTypeKey = "scratch"
    /// What the scratch screen would save.
    public struct State: Codable, Sendable, Equatable {
        /// A note.
        public var note: String

        /// Creates a state.
        ///
        /// - Parameter note: A note.
        public init(note: String = "") { self.note = note }
    }
    /// The screen's state.
    public var state = State()
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State = State()) { self.state = state }
}

/// A custom container: a split view whose panes the app adds.
public struct SplitScreen: RestorableContainer, ProbedScreen {
    /// `split`.
    public static let typeKey: ScreenTypeKey = "split"
    /// What the split screen saves.
    public struct State: Codable, Sendable, Equatable {
        /// The share of the width the first pane takes.
        public var ratio: Double
        /// The panes restored, by identifier.
        public var restoredChildren: [String]

        /// Creates a state.
        ///
        /// - Parameters:
        ///   - ratio: The share of the width the first pane takes.
        ///   - restoredChildren: The panes restored, by identifier.
        public init(ratio: Double = 0.4, restoredChildren: [String] = []) {
            self.ratio = ratio
            self.restoredChildren = restoredChildren
        }
    }
    /// The screen's state.
    public var state = State()
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?
    /// Child identifiers the container leaves out of the archive.
    public var transientChildren: Set<String> = []

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State = State()) { self.state = state }

    /// The identified children, less the transient ones.
    ///
    /// - Parameter children: The children's identifiers, nil for those without one.
    /// - Returns: The identifiers to save, in order.
    public func childrenToPreserve(_ children: [String?]) -> [String] {
        children.compactMap { $0 }.filter { !transientChildren.contains($0) }
    }

    /// Records `children <identifiers>`.
    ///
    /// - Parameter identifiers: The children restored, in order.
    public mutating func didRestoreChildren(_ identifiers: [String]) {
        probe?.record("children \(identifiers.joined(separator: ","))")
    }
}

/// A mailbox pane of the split container.
public struct MailboxScreen: ProbedScreen {
    /// `mailbox`.
    public static let typeKey: ScreenTypeKey = "mailbox"
    /// What the mailbox screen saves.
    public struct State: Codable, Sendable, Equatable {
        /// The folder shown.
        public var folder: String

        /// Creates a state.
        ///
        /// - Parameter folder: The folder shown.
        public init(folder: String = "inbox") { self.folder = folder }
    }
    /// The screen's state.
    public var state = State()
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State = State()) { self.state = state }
}

/// A message pane of the split container.
public struct MessageScreen: ProbedScreen {
    /// `message`.
    public static let typeKey: ScreenTypeKey = "message"
    /// What the message screen saves.
    public struct State: Codable, Sendable, Equatable {
        /// The message shown.
        public var messageID: UUID

        /// Creates a state.
        ///
        /// - Parameter messageID: The message shown.
        public init(messageID: UUID) { self.messageID = messageID }
    }
    /// The screen's state.
    public var state: State
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State) { self.state = state }
}

/// A note pane of the split container.
public struct NoteScreen: ProbedScreen {
    /// `note`.
    public static let typeKey: ScreenTypeKey = "note"
    /// What the note screen saves.
    public struct State: Codable, Sendable, Equatable {
        /// The note's text.
        public var text: String

        /// Creates a state.
        ///
        /// - Parameter text: The note's text.
        public init(text: String) { self.text = text }
    }
    /// The screen's state.
    public var state: State
    /// Where the screen records its hooks.
    public var probe: Probe?
    /// The path the screen was restored at.
    public var restoredPath: IdentifierPath?

    /// Creates the screen.
    ///
    /// - Parameter state: Its state.
    public init(state: State) { self.state = state }
}
