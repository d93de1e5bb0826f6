import BibModel
import Foundation
import FullText
import BibreadValues
import SyncEngine

/// The PDFs of a library that are on this machine (here or in the sync cache), and which
/// references each belongs to.
public struct LibraryPDFs: Sendable {
    /// The PDFs' paths, each once.
    public let paths: [String]
    /// The references (positions in the library) linking each path.
    public let entriesByPath: [String: [Int]]
    /// The PDFs each .bib file of the library links (by the file's absolute path; a file that
    /// links none is there too): what the full-text index records as linked by each library.
    public let pathsByLibrary: [String: [String]]

    /// Looks at the disk for every linked PDF of `library`.
    public init(library: Library) {
        self.init(entries: library.entries, files: library.files.map(\.source.path))
    }

    /// Looks at the disk for every linked PDF of `entries` (positions are in this array);
    /// `files`, the .bib files they were read from, are listed in `pathsByLibrary` even when
    /// they link nothing.
    public init(entries: [Entry], files: [String] = []) {
        var entriesByPath: [String: [Int]] = [:]
        var paths: [String] = []
        var pathsByLibrary: [String: [String]] = [:]
        for file in files { pathsByLibrary[Self.libraryName(file)] = [] }
        for (position, entry) in entries.enumerated() {
            for file in entry.links.files where file.isPDF {
                guard let path = LinkedFileLocator.shared.localPath(of: file) else { continue }
                if entriesByPath[path] == nil { paths.append(path) }
                entriesByPath[path, default: []].append(position)
                pathsByLibrary[Self.libraryName(entry.source.path), default: []].append(path)
            }
        }
        self.paths = paths
        self.entriesByPath = entriesByPath
        self.pathsByLibrary = pathsByLibrary
    }

    /// The name the full-text index knows a .bib file by: its absolute path.
    public static func libraryName(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
