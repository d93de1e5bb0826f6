// swift-tools-version:6.0
import Foundation
import PackageDescription

/// The include flags pkg-config gives for a C library, so a shim compiles against its headers
/// without linking it (the shims open their library with dlopen on first use).
func pkgConfigCFlags(_ library: String) -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["pkg-config", "--cflags", library]
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return [] }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace).map(String.init)
}

/// bibread: a full-screen terminal BibTeX reader.
///
/// Module rule (see docs/ARCHITECTURE.md): BibModel is pure Swift with no C; each C library is
/// reached through exactly one shim target; the executable only wires modules together.
let package = Package(
    name: "bibread",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "bibread", targets: ["bibread"]),
        // Development tools, not part of bibread: the reader with test hooks, stress and benchmarks.
        .executable(name: "bibread-dev", targets: ["bibread-dev"]),
        .library(name: "BibModel", targets: ["BibModel"]),
        // libFuzzer entry point (`make fuzz` builds it with -sanitize=fuzzer and links it).
        .library(name: "BibreadFuzz", type: .dynamic, targets: ["FuzzEntry"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    ],
    targets: [
        // C shims: one per system library, nothing else in them. ncursesw is linked as usual;
        // libcurl and poppler-glib are opened with dlopen on first use, so that commands that
        // need neither do not pay for loading them (and the ~90 libraries they pull in).
        .systemLibrary(name: "CCurses", pkgConfig: "ncursesw",
                       providers: [.apt(["libncursesw5-dev"])]),
        .target(name: "CCurl", cSettings: [.unsafeFlags(pkgConfigCFlags("libcurl"))],
                linkerSettings: [.linkedLibrary("dl")]),
        .target(name: "CPoppler", cSettings: [.unsafeFlags(pkgConfigCFlags("poppler-glib"))],
                linkerSettings: [.linkedLibrary("dl")]),
        // libcrypto's SHA-256, opened with dlopen too (Checksums falls back to Swift without it).
        .target(name: "CCrypto", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // The one SQLite setting GRDB does not reach (a variadic sqlite3_db_config).
        .systemLibrary(name: "CSQLiteConfig", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),

        // Property lists (XML and binary) read without recursion and within limits.
        .target(name: "PropertyList"),
        // Pure Swift model: parsing, LaTeX, names, citations, linked files.
        .target(name: "BibModel", dependencies: ["PropertyList", "DiskIO"]),
        .target(name: "Checksums", dependencies: ["CCrypto"]),
        .target(name: "DiskIO", dependencies: ["Checksums"]),
        .target(name: "PDFText", dependencies: ["CPoppler", "Checksums", "DiskIO"]),
        // Full-text search of the PDFs: an FTS5 index keyed by content fingerprint.
        .target(name: "FullText", dependencies: [
            "PDFText", "Checksums", "DiskIO", .product(name: "GRDB", package: "GRDB.swift"),
            .product(name: "GRDBSQLite", package: "GRDB.swift"),
        ]),
        // Reading lists: the bookmark tree, its plist/JSON formats and bibread://bookmarks links.
        .target(name: "ReadingList", dependencies: ["PropertyList", "CZlib"]),
        // Value types the reader's core shares with the modules that do the work: the open-with
        // menu's entries and values, the saved bookmark tree, the library session, the reading
        // mode, byte counts. No I/O, no C, no GRDB.
        .target(name: "BibreadValues", dependencies: ["BibModel", "ReadingList"]),
        // The reading state of every machine merged without conflicts (issue 29): hybrid logical
        // clocks, the operations and their log format, the CRDT replica. Foundation only, no I/O.
        .target(name: "ReadingStateSync"),
        // "Open with": the registry of installed apps, safe argv substitution, the clipboard,
        // desktop integration of bibread:// links.
        .target(name: "OpenWith", dependencies: [
            "BibModel", "BibreadValues", "DiskIO", .product(name: "TOMLKit", package: "TOMLKit"),
        ]),
        .target(name: "SyncEngine", dependencies: [
            "CCurl", "CSQLiteConfig", "BibModel", "Checksums", "DiskIO",
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // What the commands and the reader share: configuration, XDG locations, the state
        // stores, which library to open.
        .target(name: "BibreadServices", dependencies: [
            "BibModel", "BibreadValues", "SyncEngine", "FullText", "DiskIO", "Checksums", "ReadingList", "ReadingStateSync",
            .product(name: "TOMLKit", package: "TOMLKit"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        // The reader's pure core (state, update, render, keys, the screen buffer): values in,
        // values out, no I/O; its shell (`Reader`) runs the loop, the effects and curses.
        .target(name: "ReaderCore", dependencies: ["BibModel", "BibreadValues", "ReadingList"]),
        .target(name: "Reader", dependencies: [
            "ReaderCore", "CCurses", "BibModel", "BibreadValues", "BibreadServices", "PDFText", "SyncEngine", "DiskIO", "ReadingList", "OpenWith", "FullText",
            .product(name: "TOMLKit", package: "TOMLKit"),
            .product(name: "GRDB", package: "GRDB.swift"),
        ]),
        .target(name: "BibreadCLI", dependencies: [
            "BibModel", "BibreadValues", "BibreadServices", "Reader", "ReaderCore", "PDFText", "SyncEngine", "DiskIO", "ReadingList", "OpenWith", "FullText",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "bibread", dependencies: ["BibreadCLI"]),

        // Development tools kept out of bibread (docs/ARCHITECTURE.md): the reader with the test
        // hooks, the crash-safety writer and the benchmarks, all through the modules' public API.
        .target(name: "DevTools", dependencies: [
            "BibModel", "ReadingStateSync", "BibreadValues", "BibreadServices", "Reader", "ReaderCore", "PDFText", "SyncEngine", "DiskIO", "ReadingList", "FullText",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "bibread-dev", dependencies: ["DevTools"], path: "Sources/BibreadDev"),

        // Fuzzing: the targets (plain Swift, also run by the regression tests), the libFuzzer
        // entry point, and a replayer that times a corpus.
        .target(name: "FuzzTargets", dependencies: ["BibModel", "ReadingList"]),
        .target(name: "FuzzEntry", dependencies: ["FuzzTargets"]),
        .executableTarget(name: "bibread-fuzz-replay", dependencies: ["FuzzTargets"], path: "Sources/FuzzReplay"),

        .target(name: "BibreadTestSupport", dependencies: ["BibModel"], path: "Tests/BibreadTestSupport"),
        .testTarget(name: "BibModelTests", dependencies: ["BibModel", "BibreadTestSupport"]),
        .testTarget(name: "FullTextTests", dependencies: ["FullText", "PDFText", "DevTools", "BibreadTestSupport"]),
        .testTarget(name: "OpenWithTests", dependencies: ["OpenWith", "BibreadValues", "BibModel", "BibreadTestSupport"]),
        .testTarget(name: "ReadingListTests", dependencies: ["ReadingList", "BibreadTestSupport"]),
        .testTarget(name: "PDFTextTests", dependencies: ["PDFText", "Checksums", "DiskIO", "BibreadTestSupport"]),
        .testTarget(name: "BibreadServicesTests", dependencies: ["BibreadServices", "Checksums", "ReadingStateSync", "SyncEngine", "ReadingList", "BibreadValues", "BibreadTestSupport"]),
        .testTarget(name: "SyncEngineTests", dependencies: ["SyncEngine", "BibreadTestSupport"]),
        .testTarget(name: "ReaderTests", dependencies: ["Reader", "ReaderCore", "BibreadValues", "BibreadServices", "PDFText", "DiskIO", "ReadingList", "OpenWith", "FullText", "SyncEngine", "BibreadTestSupport"], exclude: ["Screens"]),
        .testTarget(name: "ReadingStateSyncTests", dependencies: ["ReadingStateSync", "BibreadTestSupport"]),
        .testTarget(name: "PropertyListTests", dependencies: ["PropertyList", "BibreadTestSupport"]),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets", "BibreadTestSupport"]),
        .testTarget(name: "EndToEndTests", dependencies: ["BibreadTestSupport", "ReadingStateSync"]),
        .testTarget(name: "CLITests", dependencies: ["BibreadCLI", "SyncEngine", "BibreadTestSupport"], exclude: ["Snapshots"]),
        // docs/ARCHITECTURE.md and the README's layout checked against this file and every import;
        // it depends on nothing of bibread's, so it builds at once.
        .testTarget(name: "ArchitectureTests"),
    ]
)
