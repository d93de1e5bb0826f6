import BibModel
import Foundation

/// Where the tests find the repository, the shared corpora, the samples and the built binary.
public enum Fixtures {
    /// The repository root (the folder holding Package.swift).
    public static let repositoryRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }()

    /// The shared test corpora: `$BIBREAD_CORPORA`, else `../shared/corpora` beside the repository.
    public static var corpora: URL {
        if let override = ProcessInfo.processInfo.environment["BIBREAD_CORPORA"] { return URL(fileURLWithPath: override) }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")
    }

    /// Every `.bib`/`.bibtex` file of the shared corpora, sorted.
    public static var corpusBibFiles: [URL] {
        let root = corpora.appendingPathComponent("bib")
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }
            .filter { ["bib", "bibtex"].contains($0.pathExtension) }
            .sorted { $0.path < $1.path }
    }

    /// A file of the shared corpora, by path below `corpora/`.
    public static func corpus(_ relativePath: String) -> URL {
        corpora.appendingPathComponent(relativePath)
    }

    /// The bundled sample library.
    public static var samples: URL { repositoryRoot.appendingPathComponent("Samples") }

    /// Parses BibTeX text given inline, as if read from `path`.
    public static func library(_ text: String, path: String = "test.bib") -> Library {
        Library.parse([(path: path, bytes: Array(text.utf8))])
    }

    /// Parses one file from disk.
    public static func library(at url: URL) -> Library {
        LibraryLoader.load(paths: [url.path]).library
    }

    /// Copies the sample library (`library.bib` and `papers/`) into `folder`, made if missing.
    public static func copySampleLibrary(to folder: URL) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["library.bib", "papers"] {
            try FileManager.default.copyItem(at: samples.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
    }

    /// Environment variables that give a `bibread` run its own home and XDG folders (config,
    /// data, cache, state) below `root`, so that nothing of this machine's is read or written;
    /// and no session bus, so that no sign-in goes to the desktop's keyring (a test that wants a
    /// keyring starts its own: ``SecretServiceSession``).
    public static func isolatedEnvironment(under root: URL) -> [String: String] {
        var environment = ["HOME": root.path, "DBUS_SESSION_BUS_ADDRESS": ""]
        for (variable, folder) in [("XDG_CONFIG_HOME", "config"), ("XDG_DATA_HOME", "data"), ("XDG_CACHE_HOME", "cache"), ("XDG_STATE_HOME", "state")] {
            environment[variable] = root.appendingPathComponent(folder).path
        }
        return environment
    }

    /// A fresh temporary directory; the caller removes it when done.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bibread-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
