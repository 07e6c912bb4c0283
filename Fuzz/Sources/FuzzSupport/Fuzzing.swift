import Dispatch
public import Foundation
import StateRestoration

/// Feeds one input through the type-free reader, the Codable decoder on an
/// app-like model, and a whole launch of the coordinator. None of them may crash,
/// hang or allocate without bound; all may throw.
public func fuzzOne(_ data: Data) {
    if let value = try? ArchiveValue(decoding: data) {
        _ = value.jsonString(prettyPrinted: false)
    }
    _ = try? ArchiveDecoder().decode(FuzzModel.self, from: data)
    // Without the envelope's magic the coordinator rejects the archive at its
    // first check; launching it costs a task and teaches the fuzzer nothing.
    guard data.starts(with: envelopeMagic) else { return }
    let released = DispatchSemaphore(value: 0)
    launchInTask(data, token: ReleaseToken(released))
    // Wait until the task has let go of everything it captured, so that
    // LeakSanitizer, which counts after each input, sees no memory in flight.
    released.wait()
}

/// The first bytes of a restoration archive file (Documentation/ArchiveFormat.md).
private let envelopeMagic: [UInt8] = [0x89, 0x53, 0x52, 0x41, 0x52, 0x43, 0x0D, 0x0A]

/// Signals a semaphore when it is deallocated: when the task holding it is done.
private final class ReleaseToken: Sendable {
    let semaphore: DispatchSemaphore
    init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }
    deinit { semaphore.signal() }
}

private func launchInTask(_ data: Data, token: ReleaseToken) {
    Task {
        let store = InMemoryStore()
        try? store.write(data, to: .main)
        _ = try? await RestorationCoordinator(screens: fuzzScreens, store: store).launch()
        _ = token
    }
}

/// Writes the seed corpus: real restoration archives and standalone encodings.
public func writeCorpus(to directory: URL) async throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let storeDirectory = directory.appendingPathComponent("store")
    let store = FileStore(directory: storeDirectory)
    let coordinator = RestorationCoordinator(screens: fuzzScreens, store: store)
    // Read back through the store: a second save may go to the archive's journal.
    try await coordinator.save(try seedTree())
    try store.read(.main)?.write(to: directory.appendingPathComponent("restoration-archive"))
    var initial = try fuzzScreens.makeInitialTree()
    try initial.selectTab("settings", in: "tabs")
    try await coordinator.save(initial)
    try store.read(.main)?.write(to: directory.appendingPathComponent("restoration-archive-initial"))
    try FileManager.default.removeItem(at: storeDirectory)
    let model = FuzzModel(
        search: .init(query: "q", filters: ["a", "b"], scrollOffset: -1.5, savedAt: Date(timeIntervalSince1970: 0)),
        products: [.init(productID: "p", quantity: -3, source: .link(URL(fileURLWithPath: "/x")), variants: [7: "v"])],
        nested: [["x": 1.0, "y": .infinity], [:]], flags: ["on"])
    try ArchiveEncoder().encode(model).write(to: directory.appendingPathComponent("model"))
    try ArchiveEncoder().encode([1, 2, 3]).write(to: directory.appendingPathComponent("int-array"))
    try ArchiveEncoder().encode(["k": "v"]).write(to: directory.appendingPathComponent("string-map"))
}
