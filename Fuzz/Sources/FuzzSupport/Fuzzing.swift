import Dispatch
public import Foundation
import StateRestoration

/// Feeds one input through the type-free reader, the Codable decoder on an
/// app-like model, and a whole launch of the coordinator; for an input that starts
/// with ``journalTag``, through the journal of an older build that a `FileStore` reads
/// (``fuzzJournal(_:)``); and for one that starts with ``savesTag``, through a program of
/// tree edits, saves and relaunches (``fuzzSaves(_:)``), where each relaunch must restore the
/// tree last saved. None of them may crash, hang or allocate without bound; all may throw.
public func fuzzOne(_ data: Data) {
    if data.starts(with: journalTag) { return fuzzJournal(data) }
    if data.starts(with: savesTag) { return fuzzSaves(data) }
    if let value = try? ArchiveValue(decoding: data) {
        _ = value.jsonString(prettyPrinted: false)
    }
    _ = try? ArchiveDecoder().decode(FuzzModel.self, from: data)
    // Without the envelope's magic the coordinator rejects the archive at its
    // first check; launching it costs a task and teaches the fuzzer nothing.
    guard data.starts(with: envelopeMagic) else { return }
    launch(data)
    // A mutation of a real archive's body almost never keeps its CRC-32C, and the launch
    // rejects it at that check: launch the body again in an envelope with its length and
    // checksum made right, so that what reads the body (the node records, the screens'
    // states, their validation) is fuzzed too.
    let resealed = resealed(data)
    if resealed != data { launch(resealed) }
}

/// Launches a coordinator on `data` from an in-memory store.
private func launch(_ data: Data) {
    runInTask {
        let store = InMemoryStore()
        try? store.write(data, to: .main)
        _ = try? await RestorationCoordinator(screens: fuzzScreens, store: store).launch()
    }
}

/// Runs `body` in a task, and waits until the task has let go of everything it captured, so
/// that LeakSanitizer, which counts after each input, sees no memory in flight.
///
/// A launch calls the screens' finished-restoring hooks on the main actor, whose jobs run on
/// the main thread: the one libFuzzer calls this on. So it waits by running the main run loop,
/// which runs them, rather than by blocking the thread.
func runInTask(_ body: @escaping @Sendable () async -> Void) {
    let released = DispatchSemaphore(value: 0)
    startTask(body, token: ReleaseToken(released))
    while released.wait(timeout: .now()) == .timedOut {
        _ = RunLoop.main.run(mode: .default, before: Date(timeIntervalSinceNow: 0.001))
    }
}

/// `data` (which starts with the envelope's magic) with the header's body length and CRC-32C
/// set for the bytes after the header; the version and flags stay as they are.
func resealed(_ data: Data) -> Data {
    let headerSize = 24
    guard data.count >= headerSize else { return data }
    var bytes = [UInt8](data)
    let body = bytes[headerSize...]
    withUnsafeBytes(of: UInt64(body.count).littleEndian) { bytes.replaceSubrange(12..<20, with: $0) }
    withUnsafeBytes(of: crc32c(body).littleEndian) { bytes.replaceSubrange(20..<24, with: $0) }
    return Data(bytes)
}

/// CRC-32C (Castagnoli, reflected), as the envelope's checksum: bit by bit, which is fast
/// enough for inputs of a few kilobytes.
func crc32c(_ bytes: some Sequence<UInt8>) -> UInt32 {
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in bytes {
        crc ^= UInt32(byte)
        for _ in 0..<8 {
            crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1
        }
    }
    return ~crc
}

/// The first bytes of a restoration archive file (Documentation/ArchiveFormat.md).
private let envelopeMagic: [UInt8] = [0x89, 0x53, 0x52, 0x41, 0x52, 0x43, 0x0D, 0x0A]

/// Signals a semaphore when it is deallocated: when the task holding it is done.
private final class ReleaseToken: Sendable {
    let semaphore: DispatchSemaphore
    init(_ semaphore: DispatchSemaphore) { self.semaphore = semaphore }
    deinit { semaphore.signal() }
}

/// Starts `body` in a task that holds `token` until it ends (the caller holds no reference to it).
private func startTask(_ body: @escaping @Sendable () async -> Void, token: ReleaseToken) {
    Task {
        await body()
        _ = token
    }
}

/// Writes the seed corpus: real restoration archives, standalone encodings, and programs of
/// tree edits and saves (``saveSeeds``). The `journal` seed, an archive file and the journal an
/// older build's `FileStore` appended to it, is not written: `FileStore` reads journals but never
/// writes them, so the committed seed is kept as it is.
public func writeCorpus(to directory: URL) async throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let storeDirectory = directory.appendingPathComponent("store")
    let store = FileStore(directory: storeDirectory)
    let coordinator = RestorationCoordinator(screens: fuzzScreens, store: store)
    try await coordinator.save(try seedTree())
    guard let archive = try store.read(.main), resealed(archive) == archive else {
        throw CocoaError(.fileReadCorruptFile)  // no archive, or the fuzzer's CRC-32C is not the envelope's
    }
    try archive.write(to: directory.appendingPathComponent("restoration-archive"))
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
    for seed in saveSeeds {
        try saveInput(seed.operations).write(to: directory.appendingPathComponent(seed.name))
    }
}
