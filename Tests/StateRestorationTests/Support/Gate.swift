import Synchronization

/// Holds tasks at `wait()` until a test calls `open()`; once open it stays open.
final class Gate: Sendable {
    private let state = Mutex<(isOpen: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    var waiterCount: Int { state.withLock { $0.waiters.count } }

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// Yields until `condition` holds; fails the wait (returns false) after many tries
/// instead of hanging a broken test forever.
func eventually(
    isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async -> Bool {
    for _ in 0..<1_000_000 {
        if await condition() { return true }
        await Task.yield()
    }
    return false
}
