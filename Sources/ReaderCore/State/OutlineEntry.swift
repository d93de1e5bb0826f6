/// One entry of a document's outline (table of contents).
public struct OutlineEntry: Sendable, Equatable {
    public let title: String
    public let level: Int
    public let page: Int?

    public init(title: String, level: Int, page: Int?) {
        self.title = title
        self.level = level
        self.page = page
    }
}
