// swift-tools-version:6.0
import PackageDescription

/// bibread: a full-screen terminal BibTeX reader.
///
/// Module rule (see docs/ARCHITECTURE.md): BibModel is pure Swift with no C; each C library is
/// reached through exactly one shim target; the executable only wires modules together.
let package = Package(
    name: "bibread",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "bibread", targets: ["bibread"]),
        .library(name: "BibModel", targets: ["BibModel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // C shims: one per system library, nothing else in them.
        .systemLibrary(name: "CCurses", pkgConfig: "ncursesw",
                       providers: [.apt(["libncursesw5-dev"])]),
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl",
                       providers: [.apt(["libcurl4-openssl-dev"])]),
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib",
                       providers: [.apt(["libpoppler-glib-dev"])]),

        // Pure Swift model: parsing, LaTeX, names, citations, linked files.
        .target(name: "BibModel"),
        .target(name: "PDFText", dependencies: ["CPoppler"]),
        .target(name: "SyncEngine", dependencies: ["CCurl", "BibModel"]),
        .target(name: "Reader", dependencies: ["CCurses", "BibModel"]),
        .target(name: "BibreadCLI", dependencies: [
            "BibModel", "Reader", "PDFText", "SyncEngine",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "bibread", dependencies: ["BibreadCLI"]),

        .target(name: "BibreadTestSupport", dependencies: ["BibModel"], path: "Tests/BibreadTestSupport"),
        .testTarget(name: "BibModelTests", dependencies: ["BibModel", "BibreadTestSupport"]),
        .testTarget(name: "PDFTextTests", dependencies: ["PDFText", "BibreadTestSupport"]),
        .testTarget(name: "SyncEngineTests", dependencies: ["SyncEngine", "BibreadTestSupport"]),
        .testTarget(name: "ReaderTests", dependencies: ["Reader", "BibreadTestSupport"]),
        .testTarget(name: "CLITests", dependencies: ["BibreadCLI", "BibreadTestSupport"]),
    ]
)
