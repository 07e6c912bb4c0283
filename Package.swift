// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "swift-state-restoration",
    platforms: [
        // Synchronization.Mutex and the typed Clock APIs need these releases.
        .iOS(.v18), .macOS(.v15), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2),
    ],
    products: [
        .library(name: "StateRestoration", targets: ["StateRestoration"]),
        .library(name: "StateRestorationTesting", targets: ["StateRestorationTesting"]),
        .executable(name: "restoration-archive", targets: ["restoration-archive"]),
        .executable(name: "restoration-demo", targets: ["restoration-demo"]),
        .executable(name: "restoration-benchmarks", targets: ["restoration-benchmarks"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "StateRestoration"),
        .target(name: "StateRestorationTesting", dependencies: ["StateRestoration"]),
        .executableTarget(name: "restoration-archive", dependencies: ["StateRestoration"]),
        .executableTarget(
            name: "restoration-demo",
            dependencies: ["StateRestoration"]
        ),
        .executableTarget(
            name: "restoration-benchmarks",
            dependencies: ["StateRestoration"],
            path: "Benchmarks/restoration-benchmarks"
        ),
        // The shop screens both test targets save and restore; not a product.
        .target(
            name: "TestScreens",
            dependencies: ["StateRestoration", "StateRestorationTesting"],
            path: "Tests/TestScreens"
        ),
        .testTarget(
            name: "StateRestorationTests",
            dependencies: ["StateRestoration", "StateRestorationTesting", "TestScreens"],
            // The golden archives (see GoldenArchiveTests).
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "StateRestorationTestingTests",
            dependencies: ["StateRestorationTesting", "TestScreens"]
        ),
    ]
)

// The same upcoming-feature settings for every target, as swift-log does.
for target in package.targets {
    var settings = target.swiftSettings ?? []
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    settings.append(.enableUpcomingFeature("InternalImportsByDefault"))
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    target.swiftSettings = settings
}
