// swift-tools-version: 6.0
// The libFuzzer target over the archive reader and the save path, kept out of the
// main package's build. Run it with ../Scripts/fuzz.sh SECONDS.
import PackageDescription

let package = Package(
    name: "StateRestorationFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "swift-state-restoration", path: "..")],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "StateRestoration", package: "swift-state-restoration")]
        ),
        .executableTarget(name: "ArchiveFuzzer", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "write-corpus", dependencies: ["FuzzSupport"]),
    ]
)
