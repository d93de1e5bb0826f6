/// The view under the overlays: the library, the bookmarks view, or a PDF read (over the
/// bookmarks view it was opened from, which shows again when the reading view closes).
public enum ScreenMode: Sendable, Equatable {
    case library
    case bookmarks(BookmarksViewState)
    case reading(ReadingState, over: BookmarksViewState?)

    /// Which view, without its state.
    public enum Kind: Sendable, Equatable {
        case library, bookmarks, reading
    }

    public var kind: Kind {
        switch self {
        case .library: return .library
        case .bookmarks: return .bookmarks
        case .reading: return .reading
        }
    }

    /// The scope of the view's keys.
    var scope: ActionScope {
        switch self {
        case .library: return .browse
        case .bookmarks: return .bookmarks
        case .reading: return .reading
        }
    }
}
