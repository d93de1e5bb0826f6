import BibModel
import Foundation
import ReadingList

/// The panes of the library view.
public enum Pane: String, Sendable, CaseIterable {
    case groups, list, details
}
