/// A one-line prompt at the bottom of the reading view.
public enum ReadingPrompt: Sendable, Equatable {
    /// `:` go to a printed page (label), or `#N` a page of the file.
    case goTo(String)
    /// `/` search the document.
    case search(String)
    /// The document is encrypted; `wrong` after a failed try.
    case password(String, wrong: Bool)
    /// `m` with folders and none chosen yet: the folder to bookmark the page in (a path).
    case bookmarkFolder(String)

    var text: String {
        switch self {
        case .goTo(let text), .search(let text), .password(let text, _), .bookmarkFolder(let text): return text
        }
    }

    func with(_ text: String) -> ReadingPrompt {
        switch self {
        case .goTo: return .goTo(text)
        case .search: return .search(text)
        case .password(_, let wrong): return .password(text, wrong: wrong)
        case .bookmarkFolder: return .bookmarkFolder(text)
        }
    }
}
