import Foundation
import Testing

/// `restoration-demo` without arguments: the README's first command, and CI's.
@Suite struct ScriptedDemoTests {
    #if !os(iOS) && !os(tvOS) && !os(watchOS) && !os(visionOS)
        @Test("the scripted session kills the app, restores it in a new process and prints both side by side")
        func scriptedSession() throws {
            var demo = try DemoProcess.withPipe([])
            defer { demo.terminate() }
            let status = WaitStatus(raw: try demo.waitForStopOrExit("the scripted session"))
            let output = DemoProcess.plainText(demo.received[...])
            #expect(status.exitCode == 0, "restoration-demo \(status):\n\(output)")
            #expect(output.contains("before the kill"))
            #expect(output.contains("after the relaunch"))
            let composeRow = output.split(separator: "\n").first { $0.contains("compose  \"Is the carton recycl\"") }
            #expect(composeRow?.components(separatedBy: "compose  \"Is the carton recycl\"").count == 3, "two columns")
            #expect(composeRow?.contains(" │ ") == true, "an unmarked row: both sides equal")
            #expect(output.contains("7 lines, 0 differ"))
            #expect(output.contains("launch phase: re-create and decode screens ("))
            #expect(
                output.contains(
                    "launch screen-restored (5 debug events): search#0, results#1, product#2, compose, settings"))
            #expect(output.contains("launch finished: restored, 5 screens restored, 0 skipped ("))
            #expect(output.split(separator: "\n").count <= 45, "one screen:\n\(output)")
        }
    #endif
}
