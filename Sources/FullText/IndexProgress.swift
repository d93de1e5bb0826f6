/// How far an `update` has got, reported after the files are planned and after each document.
public struct IndexProgress: Sendable, Equatable {
    /// Documents read (or found unreadable) so far in this update.
    public let done: Int
    /// Documents this update has to read (new or changed content).
    public let total: Int
    /// Pages stored so far in this update.
    public let pages: Int
    /// The file of the document last finished, or nil before the first.
    public let currentPath: String?

    /// Creates a progress report.
    public init(done: Int, total: Int, pages: Int, currentPath: String?) {
        self.done = done
        self.total = total
        self.pages = pages
        self.currentPath = currentPath
    }
}
