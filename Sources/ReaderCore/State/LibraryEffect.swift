import BibModel

/// Work over the whole library, whose results are events about groups, the sort and marks.
public enum LibraryEffect: Sendable, Equatable {
    case loadFieldGroups
    case countGroups([GroupID])
    case computeGroupMembers(GroupID)
    case buildSearchIndex
    case computeSort(SortKey)
    /// Work out the list marks, and where every linked file is (`filesLocated`).
    case computeMarks
    /// Find where these files are, to open the reference at `opening` once they are located.
    case locateFiles([LinkedFile], opening: EntryAddress)
    /// Collect the library's keywords for the keywords prompt's completion (`keywordsReady`).
    case collectKeywords
    /// Read the conflicts the remote's journal keeps for the library's files (`conflictsLoaded`).
    case loadConflicts
}
