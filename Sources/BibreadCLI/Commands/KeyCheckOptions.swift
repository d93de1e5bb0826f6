import ArgumentParser
import BibModel
import BibreadServices
import Foundation

/// The library cite keys are checked against: `--library`, else the reader's current library.
struct KeyCheckOptions: ParsableArguments {
    @Option(name: .customLong("library"), help: ArgumentHelp(
        "The library to check cite keys against (repeatable; default: the reader's library).", valueName: "library.bib"))
    var libraries: [String] = []

    /// The library, or nil when none is named, configured or opened before.
    func load() throws -> (library: Library, paths: [String])? {
        let named = try RemoteResolution.libraryPaths(libraries)
        let paths = LibraryPaths.current(given: named)
        guard !paths.isEmpty else { return nil }
        let loaded = LoadedLibrary.load(paths: paths)
        return loaded.failures.count == paths.count ? nil : (loaded.library, paths)
    }
}
