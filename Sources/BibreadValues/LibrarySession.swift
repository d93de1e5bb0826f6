/// What comes back on the next start, per library: the group, the selected reference and the
/// sort (reading positions and times live in the SQLite `ReadingStore`).
public struct LibrarySession: Codable, Sendable, Equatable {
    public var group: String?
    public var selection: String?
    public var sort: String?
    public var descending: Bool?

    public init(group: String? = nil, selection: String? = nil, sort: String? = nil, descending: Bool? = nil) {
        self.group = group
        self.selection = selection
        self.sort = sort
        self.descending = descending
    }
}
