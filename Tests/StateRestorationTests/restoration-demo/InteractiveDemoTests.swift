import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `restoration-demo --interactive`, driven through a pseudo-terminal as a user
/// would drive it: keys in, screens out.
@Suite struct InteractiveDemoTests {
    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
        @Test("Ctrl-Z saves and stops the app; killed and started again, it shows the same query, product and message")
        func suspendKillRelaunch() throws {
            let root = try TemporaryDirectory()
            defer { root.remove() }
            let store = root.url.appendingPathComponent("store")
            let arguments = ["--interactive", "--directory", store.path]

            var first = try DemoProcess.onTerminal(arguments)
            defer { first.terminate() }
            try first.waitForScreen(containing: ["Fresh start", "Search: "], "the first launch")
            try first.type("oat milk")
            try first.waitForScreen(containing: ["Search: oat milk"], "typing the query")
            try first.type("\t")
            try first.waitForScreen(containing: ["[x] organic only"], "Tab: the organic filter")
            try first.type("\r")
            try first.waitForScreen(containing: ["Results for \"oat milk\""], "Enter: the results")
            try first.type("\u{1B}[B")
            try first.waitForScreen(containing: ["row 2 of 3 selected"], "↓: the second result")
            try first.type("\r")
            try first.waitForScreen(containing: ["Quantity: 1", "p-2208"], "Enter: the product")
            try first.type("+")
            try first.waitForScreen(containing: ["Quantity: 2"], "+: quantity 2")
            try first.type("m")
            try first.waitForScreen(containing: ["Message to the shop"], "m: a message")
            try first.type("Is the carton recycl")
            try first.waitForScreen(containing: ["Message: Is the carton recycl"], "typing the message")

            // Ctrl-Z: the line discipline turns byte 0x1A into SIGTSTP for the app.
            try first.type("\u{1A}")
            try first.waitForScreen(containing: ["Saved 7 nodes", "Suspended"], "Ctrl-Z: saving")
            let stopped = WaitStatus(raw: try first.waitForStopOrExit("Ctrl-Z: stopping"))
            // SIGTSTP under a shell; SIGSTOP here, where POSIX discards SIGTSTP (see SystemCalls.suspendProcess).
            #expect(stopped.stopSignal == SIGTSTP || stopped.stopSignal == SIGSTOP, "the app \(stopped)")
            #expect(FileManager.default.fileExists(atPath: store.appendingPathComponent("main.restoration").path))

            let killed = WaitStatus(raw: try first.kill())
            #expect(killed.terminationSignal == SIGKILL, "the app \(killed)")

            var second = try DemoProcess.onTerminal(arguments)
            defer { second.terminate() }
            try second.waitForScreen(
                containing: [
                    "Restored 5 screens", "Message to the shop", "Subject: About Oat Milk Barista 1 l",
                    "Message: Is the carton recycl", "search#0  \"oat milk\", organic only",
                    "results#1  \"oat milk\": row 2 of 3 selected", "product#2  p-2208, quantity 2",
                ], "the relaunch")

            try second.type("\u{11}")  // Ctrl-Q: quit, saving
            let quit = WaitStatus(raw: try second.waitForStopOrExit("Ctrl-Q: quitting"))
            #expect(quit.exitCode == 0, "the app \(quit)")
        }
    #endif
}

extension InteractiveDemoTests {
    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
        /// A job-control shell, as a user runs the demo: there the app stops by
        /// SIGTSTP itself (which POSIX discards in the first test's orphaned
        /// process group), and `fg` brings it back.
        @Test(
            "under bash's job control, Ctrl-Z saves and stops the app by SIGTSTP; fg brings it back; kill -9 and a new run restore it",
            .enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs /bin/bash"))
        func jobControlShell() throws {
            let root = try TemporaryDirectory()
            defer { root.remove() }
            let store = root.url.appendingPathComponent("store")
            let command = "'\(try DemoProcess.executable().path)' --interactive --directory '\(store.path)'\r"

            var shell = try DemoProcess.onTerminal(
                ["--norc", "--noprofile", "-i"], program: "/bin/bash", environment: ["PS1": "$ "])
            defer { shell.terminate() }
            try shell.type(command)
            try shell.waitForScreen(containing: ["Fresh start", "Search: "], "the first run")
            try shell.type("oat milk")
            try shell.waitForScreen(containing: ["Search: oat milk"], "typing the query")

            try shell.type("\u{1A}")
            try shell.waitForScreen(containing: ["Suspended", "Stopped "], "Ctrl-Z: saving and stopping")
            // bash says `Stopped` for SIGTSTP, `Stopped (signal)` for SIGSTOP.
            #expect(!shell.screen.contains("Stopped (signal)"), "stopped by SIGSTOP, not SIGTSTP:\n\(shell.screen)")
            #expect(FileManager.default.fileExists(atPath: store.appendingPathComponent("main.restoration").path))

            try shell.type("fg\r")
            try shell.waitForScreen(containing: ["Back from the background", "Search: oat milk"], "fg: continuing")
            try shell.type("\u{1A}")
            try shell.waitForScreen(containing: ["Suspended", "Stopped "], "Ctrl-Z again")

            try shell.type("kill -9 %1\r" + command)
            try shell.waitForScreen(containing: ["Restored 2 screens", "Search: oat milk"], "the run after kill -9")
            try shell.type("\u{11}")
            try shell.waitForScreen(containing: ["brings you back here"], "Ctrl-Q: quitting")
            try shell.type("exit\r")
            let exited = WaitStatus(raw: try shell.waitForStopOrExit("exiting the shell"))
            #expect(exited.exitCode == 0, "bash \(exited):\n\(shell.screen)")
        }
    #endif
}

extension InteractiveDemoTests {
    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
        /// The keys that change the navigation rather than a screen's state: a
        /// message dismissed, a screen closed by going back, another tab selected.
        @Test("keys dismiss a message, go back, switch tabs; Ctrl-Z, kill -9, a relaunch: the same tab and stack")
        func navigationKeysRelaunch() throws {
            let root = try TemporaryDirectory()
            defer { root.remove() }
            let store = root.url.appendingPathComponent("store")
            let arguments = ["--interactive", "--directory", store.path]

            var first = try DemoProcess.onTerminal(arguments)
            defer { first.terminate() }
            try first.waitForScreen(containing: ["Fresh start", "Search: "], "the first launch")
            try first.type("oat milk")
            try first.waitForScreen(containing: ["Search: oat milk"], "typing the query")
            try first.type("\r")
            try first.waitForScreen(
                containing: ["Results for \"oat milk\"", "row 1 of 5 selected"], "Enter: the results")
            try first.type("\r")
            try first.waitForScreen(containing: ["Quantity: 1", "product#2  p-1093"], "Enter: the product")
            try first.type("m")
            try first.waitForScreen(containing: ["Message to the shop", "compose  \"\""], "m: a message")
            try first.type("\u{1B}")
            try first.waitForScreen(containing: ["Message discarded.", "Quantity: 1"], "Esc: the message dismissed")
            #expect(!first.screen.contains("compose"))
            try first.type("\u{1B}")
            try first.waitForScreen(containing: ["Results for \"oat milk\""], "Esc: back to the results")
            #expect(!first.screen.contains("product#2"))
            try first.type("\u{1B}[C")
            try first.waitForScreen(containing: ["› Prices in EUR", "tabs  selected: settings"], "→: the settings tab")
            try first.type("\u{1B}[B")
            try first.waitForScreen(containing: ["› Prices in USD", "settings  currency USD"], "↓: prices in USD")

            try first.type("\u{1A}")
            try first.waitForScreen(containing: ["Saved 5 nodes", "Suspended"], "Ctrl-Z: saving")
            let stopped = WaitStatus(raw: try first.waitForStopOrExit("Ctrl-Z: stopping"))
            #expect(stopped.stopSignal == SIGTSTP || stopped.stopSignal == SIGSTOP, "the app \(stopped)")
            let killed = WaitStatus(raw: try first.kill())
            #expect(killed.terminationSignal == SIGKILL, "the app \(killed)")

            var second = try DemoProcess.onTerminal(arguments)
            defer { second.terminate() }
            try second.waitForScreen(
                containing: [
                    "Restored 3 screens", "› Prices in USD", "tabs  selected: settings",
                    "results#1  \"oat milk\": row 1 of 5 selected",
                ], "the relaunch")
            #expect(!second.screen.contains("product#2"))
            try second.type("\u{1B}[D")
            try second.waitForScreen(containing: ["Results for \"oat milk\"", "2.04 USD"], "←: the shop tab, in USD")

            try second.type("\u{11}")  // Ctrl-Q: quit, saving
            let quit = WaitStatus(raw: try second.waitForStopOrExit("Ctrl-Q: quitting"))
            #expect(quit.exitCode == 0, "the app \(quit)")
        }
    #endif
}
