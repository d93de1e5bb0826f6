import BibModel
import Foundation
import ReadingList
import SyncEngine

/// Where a reading list comes from, as the user wrote it: a file, an http(s) URL, or a link.
public enum ReadingListSource: Sendable, Equatable {
    /// A file path; `-` is standard input.
    case file(String)
    /// An `http://` or `https://` URL to download.
    case url(String)
    /// A `bibread://bookmarks?…` or `bibread://downloadbookmarks?…` link.
    case link(String)

    /// Tells a link, a URL and a file apart.
    public init(_ argument: String) {
        let trimmed = argument.trimmingCharacters(in: .whitespacesAndNewlines)
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("bibread:") {
            self = .link(trimmed)
        } else if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            self = .url(trimmed)
        } else {
            self = .file(argument)
        }
    }

    /// How messages name it: the path, the URL, or `the link`.
    public var displayName: String {
        switch self {
        case .file("-"): return "<stdin>"
        case .file(let path): return path
        case .url(let url): return url
        case .link: return "the link"
        }
    }

    /// The name a list gets when its root has none: the file's name without its extension.
    public var fallbackName: String {
        switch self {
        case .file(let path) where path != "-":
            let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
            return name.isEmpty ? "Imported list" : name
        case .url(let url):
            let last = URL(string: url).map { ($0.lastPathComponent as NSString).deletingPathExtension } ?? ""
            return last.isEmpty || last == "/" ? "Imported list" : last
        default:
            return "Imported list"
        }
    }
}
