/// Work over the whole library, whose results are events about groups, the sort and marks.
public enum LibraryEffect: Sendable, Equatable {
    case loadFieldGroups
    case countGroups([String])
    case computeGroupMembers(path: String)
    case buildSearchIndex
    case computeSort(SortKey)
    case computeMarks
}
