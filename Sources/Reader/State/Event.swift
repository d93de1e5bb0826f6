import BibModel

/// Something that happened: input from the terminal, or the result of background work.
public enum Event: Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize(width: Int, height: Int)
    /// Field groups and counts arrive after the first screen (they read every reference).
    case groupsReady([Group])
    case groupCounts([String: Int])
    case groupMembers(path: String, members: [Int])
    case searchIndexReady(SearchIndex)
    case sortReady(SortKey, rank: [Int32])
    case marksReady([ReferenceMarks])
    case documentOpened(path: String, pageCount: Int, title: String?)
    case pageText(path: String, page: Int, text: String)
    case documentFailed(path: String, message: String)
    /// A terminating signal (SIGINT, SIGTERM, SIGHUP) arrived.
    case terminate
}

/// Work `update` asks the shell to do; results come back as events.
public enum Effect: Sendable, Equatable {
    case loadFieldGroups
    case countGroups([String])
    case computeGroupMembers(path: String)
    case buildSearchIndex
    case computeSort(SortKey)
    case computeMarks
    case openDocument(path: String)
    case extractPage(path: String, page: Int)
    /// Write the session (library, group, selection, sort) to the state file.
    case saveSession
    case recordReading(key: String)
    case redrawAll
    case quit
}
