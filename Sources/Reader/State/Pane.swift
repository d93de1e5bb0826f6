import BibModel
import Foundation
import OpenWith
import ReadingList

/// The panes of the library view.
public enum Pane: String, Sendable, CaseIterable {
    case groups, list, details
}
