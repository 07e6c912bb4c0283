import StateRestoration
import StateRestorationTesting
import Synchronization
import TestScreens
import Testing

/// A screen whose State's Codable drops `detail`: it does not round-trip.
private struct LossyScreen: RestorableScreen, RestorationSampling {
    static let typeKey: ScreenTypeKey = "lossy"
    struct State: Codable, Sendable, Equatable {
        var title = ""
        var detail = ""
        enum CodingKeys: String, CodingKey { case title }
        init(title: String = "", detail: String = "") {
            self.title = title
            self.detail = detail
        }
        init(from decoder: any Decoder) throws {
            title = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .title)
        }
    }
    var state = State()
    init(state: State = State()) { self.state = state }

    static var restorationSamples: [LossyScreen] { [LossyScreen(state: .init(title: "t", detail: "lost"))] }
}

/// A screen whose State encodes but never decodes.
private struct BrokenScreen: RestorableScreen, RestorationSampling {
    static let typeKey: ScreenTypeKey = "broken"
    struct State: Codable, Sendable, Equatable {
        var value = 1
        init() {}
        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "never decodes"))
        }
    }
    var state = State()
    init(state: State = State()) { self.state = state }

    static var restorationSamples: [BrokenScreen] { [BrokenScreen()] }
}

/// A screen with no samples and no initial instance.
private struct UnsampledScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "unsampled"
    struct State: Codable, Sendable, Equatable { var n = 0 }
    var state = State()
    init(state: State = State()) { self.state = state }
}

/// A screen with no samples but an initial instance, which is checked instead.
private struct PlainScreen: RestorableScreen {
    static let typeKey: ScreenTypeKey = "plain"
    struct State: Codable, Sendable, Equatable { var n = 0 }
    var state = State()
    init(state: State = State()) { self.state = state }
}

/// Good screens, and a lossy one in every kind of place: a tab, pushed, presented
/// over a pushed screen, a container's child.
private let troubledDeclaration = ScreenDeclaration {
    Tabs("tabs") {
        Stack("browse", root: SearchScreen()) {
            Screen(ProductScreen.self, id: "product").presents { Screen(LossyScreen.self, id: "lossy-sheet") }
            Screen(LossyScreen.self, id: "lossy")
            Screen(UnsampledScreen.self, id: "unsampled")
            Screen(BrokenScreen.self, id: "broken")
        }
        Screen(LossyScreen(), id: "lossy-tab")
        Screen(PlainScreen(state: .init(n: 7)), id: "plain")
        Container(SplitScreen(), id: "split") { Screen(LossyScreen.self, id: "lossy-pane") }
    }
}

private let troubledFailures = [
    "tabs/browse/product#1/lossy-sheet changed",
    "tabs/browse/lossy#1 changed",
    "tabs/browse/unsampled#1 no-sample",
    "tabs/browse/broken#1 skipped",
    "tabs/lossy-tab changed",
    "tabs/split/lossy-pane changed",
]

@Suite struct EveryScreenRoundTripTests {
    @Test("every screen of a good declaration round-trips, and no issue is recorded")
    func goodScreens() async throws {
        let failures = try await RestorationHarness(screens: TestApp.declaration).expectEveryScreenRoundTrips()
        #expect(failures.isEmpty)
    }

    @Test("a container and a stack presented over a screen are checked with what is in them")
    func presentedContainers() async throws {
        let declaration = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) {
                Screen(ProductScreen.self, id: "product")
                    .presents {
                        Container(SplitScreen(), id: "split") {
                            Screen(NoteScreen.self, id: "note")
                            Screen(LossyScreen.self, id: "lossy-pane")
                        }
                        Stack("checkout", root: SearchScreen()) { Screen(LossyScreen.self, id: "lossy") }
                    }
            }
        }
        let failures = try await RestorationHarness(screens: declaration).everyScreenRoundTripFailure()
        // Only the lossy screens, found where the declaration puts them: the container and its
        // note pane are placed and round-trip.
        #expect(
            failures.map { "\($0.path?.description ?? "-") \($0.kind.rawValue)" } == [
                "browse/product#1/split/lossy-pane changed",
                "browse/product#1/checkout/lossy#1 changed",
            ])
    }

    @Test("each failing screen is reported with its type, path and why, wherever the declaration puts it")
    func failuresNamePathAndKind() async throws {
        let failures = try await RestorationHarness(screens: troubledDeclaration).everyScreenRoundTripFailure()
        #expect(failures.map { "\($0.path?.description ?? "-") \($0.kind.rawValue)" } == troubledFailures)
        let lossy = try #require(failures.first { $0.path == "tabs/lossy-tab" })
        #expect(lossy.typeKey == "lossy")
        #expect(lossy.message.contains(#"detail: "lost""#))
        #expect(lossy.message.contains(#"detail: """#))
        let broken = try #require(failures.first { $0.typeKey == "broken" })
        #expect(broken.message.contains("decode-failed"))
        #expect(broken.message.contains("never decodes"))
    }

    @Test("the failures are recorded as issues at the caller's line")
    func recordsIssues() async throws {
        let harness = RestorationHarness(screens: troubledDeclaration)
        let recorded = Mutex<[(String, Int?)]>([])
        let line = #line + 2
        try await withKnownIssue {
            try await harness.expectEveryScreenRoundTrips()
        } matching: { issue in
            recorded.withLock { $0.append((issue.comments.map(\.rawValue).joined(), issue.sourceLocation?.line)) }
            return true
        }
        let issues = recorded.withLock { $0 }
        #expect(issues.count == troubledFailures.count)
        #expect(issues.allSatisfy { $0.1 == line })
        #expect(issues.first?.0.hasPrefix("lossy at tabs/browse/product#1/lossy-sheet did not round-trip: ") == true)
    }

    @Test("samples passed in are checked for types without RestorationSampling")
    func explicitSamples() async throws {
        let declaration = ScreenDeclaration {
            Stack("browse", root: SearchScreen()) { Screen(UnsampledScreen.self, id: "unsampled") }
        }
        let harness = RestorationHarness(screens: declaration)
        #expect(try await harness.everyScreenRoundTripFailure().map(\.kind) == [.noSample])
        #expect(try await harness.expectEveryScreenRoundTrips(samples: [UnsampledScreen(state: .init(n: 3))]).isEmpty)
        let lossy = try await harness.everyScreenRoundTripFailure(samples: [
            UnsampledScreen(state: .init(n: 3)), LossyScreen(state: .init(title: "x", detail: "y")),
        ])
        #expect(lossy.isEmpty)  // LossyScreen is not declared here, so its sample is not used
    }
}
