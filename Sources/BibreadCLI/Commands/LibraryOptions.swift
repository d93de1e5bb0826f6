import ArgumentParser
import BibModel

/// The `.bib` files a command reads; together they form one library.
struct LibraryOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("BibTeX files; several files form one library.", valueName: "library.bib"))
    var libraries: [String] = []

    /// Loads the library, reporting unreadable files on standard error; see
    /// `LibraryLoader.load(paths:preparingLineNumbers:)`.
    func load(preparingLineNumbers: Bool = false) throws -> LoadedLibrary {
        LoadedLibrary.load(paths: try paths, preparingLineNumbers: preparingLineNumbers)
    }

    /// The .bib files named, with a synced remote's name standing for its .bib files.
    var paths: [String] {
        get throws { try RemoteResolution.libraryPaths(libraries) }
    }
}
