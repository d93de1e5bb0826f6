import Foundation

/// A target of Package.swift as SwiftPM reads it (`swift package dump-package`), with where its
/// sources are by SwiftPM's conventions.
struct PackageTarget {
    /// The target's name.
    let name: String
    /// `regular`, `executable`, `test`, `system`, …
    let type: String
    /// Its folder, relative to the package root: its `path:`, else `Sources/<name>` (`Tests/<name>` for a test target).
    let path: String
    /// Folders and files under `path` that are not sources (`exclude:`), relative to `path`.
    let excluded: [String]
    /// The only files and folders under `path` that are sources (`sources:`), when the target says.
    let sources: [String]?
    /// The targets and products it depends on, by name (a product by its product name, which is its module's).
    let dependencies: [String]

    /// Every target of the package at `root`, read by SwiftPM itself (no build, no network).
    static func all(inPackageAt root: URL) throws -> [PackageTarget] {
        let json = try dumpPackage(at: root)
        guard let manifest = try JSONSerialization.jsonObject(with: json) as? [String: Any],
              let targets = manifest["targets"] as? [[String: Any]] else {
            throw ArchitectureError("swift package dump-package printed no list of targets")
        }
        return try targets.map { target in
            guard let name = target["name"] as? String, let type = target["type"] as? String else {
                throw ArchitectureError("swift package dump-package printed a target without a name or type")
            }
            let path = target["path"] as? String ?? (type == "test" ? "Tests/\(name)" : "Sources/\(name)")
            let dependencies = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                // {"byName": [name, condition]}, {"target": [name, condition]}, {"product": [name, package, …]}
                ["byName", "target", "product"].lazy.compactMap { (dependency[$0] as? [Any])?.first as? String }.first
            }
            return PackageTarget(name: name, type: type, path: path,
                                 excluded: target["exclude"] as? [String] ?? [], sources: target["sources"] as? [String],
                                 dependencies: dependencies)
        }
    }

    /// The source files of the target (`.swift`, `.c`, `.h`), relative to the package root, sorted.
    func sourceFiles(inPackageAt root: URL) -> [String] {
        let folder = root.appendingPathComponent(path)
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            if excluded.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) { continue }
            if let sources, !sources.contains(where: { relative == $0 || relative.hasPrefix($0 + "/") }) { continue }
            if [".swift", ".c", ".h"].contains(where: { relative.hasSuffix($0) }) {
                files.append(path + "/" + relative)
            }
        }
        return files.sorted()
    }

    /// Runs `swift package dump-package` in `root` and returns what it printed.
    private static func dumpPackage(at root: URL) throws -> Data {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("architecture-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = scratch.appendingPathComponent("out.json"), errors = scratch.appendingPathComponent("err.txt")
        guard FileManager.default.createFile(atPath: output.path, contents: nil),
              FileManager.default.createFile(atPath: errors.path, contents: nil) else {
            throw ArchitectureError("could not create files in \(scratch.path) for swift package dump-package")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch path of its own: `swift test` holds the lock of .build while the tests run, and
        // dump-package would wait for it forever.
        process.arguments = ["swift", "package", "--package-path", root.path,
                             "--scratch-path", scratch.appendingPathComponent("build").path, "dump-package"]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw ArchitectureError("swift package dump-package failed (status \(process.terminationStatus)): \(message)")
        }
        return try Data(contentsOf: output)
    }
}
