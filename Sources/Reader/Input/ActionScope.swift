/// Where an action applies: everywhere, in the library panes, or in the reading view.
public enum ActionScope: String, Sendable, CaseIterable {
    case navigation = "Moving"
    case browse = "Library"
    case reading = "Reading"
    case bookmarks = "Bookmarks"
}
