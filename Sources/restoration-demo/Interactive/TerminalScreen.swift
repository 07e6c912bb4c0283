import Observation

/// The terminal as the app's window: it draws the app's screen, and draws it
/// again whenever something the drawing read changes, as SwiftUI renders a view
/// again when what its body read changes.
///
/// ```swift
/// withObservationTracking { draw() } onChange: { ask for the next draw }
/// ```
///
/// An observation ends at the first change it sees, so each draw registers a new
/// one, with what that draw read; the changes made before the next draw runs are
/// drawn once.
@MainActor
final class TerminalScreen {
    private let app: ShopApp
    /// One element when a change asked for a draw; at most one waits.
    private let changes: AsyncStream<Void>
    private let changed: AsyncStream<Void>.Continuation
    /// Whether the app has the terminal: not while it is suspended.
    private var isShown = false

    init(app: ShopApp) {
        self.app = app
        (changes, changed) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Takes the terminal (raw mode, the alternate screen, no cursor) and draws.
    func show() throws(DemoError) {
        try SystemCalls.enterRawMode()
        SystemCalls.write(ScreenDrawing.enter)
        isShown = true
        draw()
    }

    /// Gives the terminal back as ``show()`` found it; nothing is drawn until
    /// it is shown again.
    func hide() {
        isShown = false
        SystemCalls.write(ScreenDrawing.leave)
        SystemCalls.leaveRawMode()
    }

    /// Draws the app's screen, observing what the drawing reads: the first change
    /// of it asks for the next draw.
    func draw() {
        guard isShown else { return }
        let frame = withObservationTracking {
            ScreenDrawing.frame(of: app)
        } onChange: { [changed] in
            changed.yield()
        }
        SystemCalls.write(frame)
    }

    /// Draws again after each change, until the task is cancelled.
    func redrawOnChange() async {
        for await _ in changes { draw() }
    }
}
