import BibModel

/// A library and the files that could not be part of it.
struct LoadedLibrary {
    let library: Library
    let failures: [LoadFailure]

    /// One line on standard error when the files have problems, pointing at `bibread check`.
    func summarizeDiagnostics(paths: [String]) {
        let errors = library.errorCount
        let warnings = library.warningCount
        guard errors + warnings > 0 else { return }
        var parts: [String] = []
        if errors > 0 { parts.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        Console.error("bibread: \(parts.joined(separator: ", ")) while reading; run 'bibread check \(paths.joined(separator: " "))' for details")
    }

    /// The entry `key` addresses (`KEY` or `KEY#2`); else says so, with similar keys, and exits
    /// with status 1 (or 2 when a file could not be read).
    func entry(addressedBy key: String, paths: [String]) throws -> Entry {
        if let entry = library.entry(addressedBy: key) { return entry }
        try exitIfSomeFilesFailed()
        Console.error(Self.noReferenceMessage(key: key, in: library, paths: paths))
        throw ExitStatus.problems
    }

    /// "bibread: no reference with key 'KEY' in FILES", with up to three similar keys.
    static func noReferenceMessage(key: String, in library: Library, paths: [String]) -> String {
        var message = "bibread: no reference with key '\(key)' in \(paths.joined(separator: ", "))"
        let similar = ShowCommand.similarKeys(to: key, in: library)
        if !similar.isEmpty { message += "; did you mean \(similar.map { "'\($0)'" }.joined(separator: ", "))?" }
        return message
    }

    /// Exits with status 2 when a file could not be read (after the command printed what it could).
    func exitIfSomeFilesFailed() throws {
        if !failures.isEmpty { throw ExitStatus.unreadable }
    }
}

extension LoadedLibrary {
    /// Loads the files at `paths` as one library, reporting unreadable files on standard error;
    /// see `LibraryLoader.load(paths:preparingLineNumbers:)`.
    static func load(paths: [String], preparingLineNumbers: Bool = false) -> LoadedLibrary {
        let (library, failures) = LibraryLoader.load(paths: paths, preparingLineNumbers: preparingLineNumbers)
        for failure in failures {
            Console.error("bibread: \(failure)")
        }
        return LoadedLibrary(library: library, failures: failures)
    }
}
