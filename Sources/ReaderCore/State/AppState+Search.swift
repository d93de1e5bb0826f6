import BibModel
import BibreadValues
import Foundation

/// The help overlay's keys, the search bar, and the list the group, the search and the sort make.
extension AppState {
    mutating func handleHelp(_ key: Key) -> [Effect] {
        let scroll = screen.helpScroll ?? 0
        // The help's last line at the bottom of the box is as far as it scrolls.
        let rows = max(1, height - 4)
        let lastTop = max(0, HelpOverlay.lines(self, width: max(1, min(width, HelpOverlay.widestBox) - 4)).count - rows)
        switch keymap.action(for: key, in: .help) {
        case .moveDown: screen.helpScroll = min(lastTop, scroll + 1)
        case .moveUp: screen.helpScroll = max(0, min(lastTop, scroll) - 1)
        case .pageDown: screen.helpScroll = min(lastTop, scroll + rows)
        case .pageUp: screen.helpScroll = max(0, min(lastTop, scroll) - rows)
        default: screen.close(.help)
        }
        return []
    }

    mutating func handleSearchInput(_ key: Key) -> [Effect] {
        let action = keymap.action(for: key, in: .searchBar)
        var field = TextField(searchText)
        if field.apply(action, key: key) {
            guard field.text != searchText else { return [] }
            searchText = field.text
            return applySearch()
        }
        switch action {
        case .clearSearch:
            searchFocused = false
            if !searchText.isEmpty {
                searchText = ""
                return applySearch()
            }
        case .keepSearch:
            searchFocused = false
            focus = .list
        case .listDown, .listUp, .listPageDown, .listPageUp:
            let saved = focus
            focus = .list
            let moves: [Action: Action] = [.listDown: .moveDown, .listUp: .moveUp, .listPageDown: .pageDown, .listPageUp: .pageUp]
            _ = perform(moves[action ?? .listDown] ?? .moveDown)
            focus = saved
        default:
            break
        }
        return []
    }

    /// Filters the list by the search text (when the index is ready; it applies on arrival).
    /// `text:` terms are asked of the full-text index in the background; the list follows
    /// when its answer arrives.
    @discardableResult
    mutating func applySearch() -> [Effect] {
        let trimmed = searchText.trimmingCharacters(in: .whitespaces)
        searchError = nil
        if trimmed.isEmpty {
            searchMatches = nil
            fullText = nil
            fullTextPending = nil
            refreshVisible()
            return []
        }
        let query: Query
        do {
            query = try Query(parsing: searchText)
        } catch let error as QueryError {
            searchError = error.description
            // A phrase being typed: its quote is still open. Filter by the phrase so far, as if
            // closed; any other problem keeps the last good filter.
            let typedSoFar = searchText.split(separator: "\"", omittingEmptySubsequences: false).last ?? ""
            guard error.message == QueryError.unclosedQuote, !typedSoFar.allSatisfy(\.isWhitespace),
                  let phraseSoFar = try? Query(parsing: searchText + "\"") else { return [] }
            query = phraseSoFar
        } catch {
            searchError = "\(error)"
            return []
        }
        var effects: [Effect] = []
        let terms = query.fullTextTerms
        if terms.isEmpty {
            fullText = nil
            fullTextPending = nil
        } else if fullText?.terms != terms && fullTextPending != terms {
            fullTextPending = terms
            effects.append(.fullText(.searchFullText(terms)))
        }
        guard let searchIndex else { return effects }
        // Until the index answers, text: terms use the last answer (or match nothing).
        searchMatches = searchIndex.search(query, fullText: fullText)
        refreshVisible()
        return effects
    }

    // MARK: - The visible list

    /// Recomputes the list from the group, the search and the sort, keeping the selected
    /// reference selected when it is still shown.
    mutating func refreshVisible() {
        let previous = selectedEntryPosition
        var rows = groupMembers ?? []
        if let matches = searchMatches {
            rows = AppState.intersect(rows, matches)
        }
        if activeGroup.builtIn?.keepsItsOwnOrder == true {
            // This group's order is its point: the most recently read first.
        } else if let rank = sortRank {
            rows = RankSort.sorted(rows, by: rank, descending: sortDescending)
        } else if sortDescending && sort.startsDescending == false {
            rows.reverse()
        }
        visible = rows
        if let pending = pendingSelection, let library, groupMembers != nil {
            if let index = rows.firstIndex(where: { library.entries[$0].entryAddress == pending }) {
                listCursor.selected = index
                listCursor.top = max(0, index - pageRows(.list) / 2)
                pendingSelection = nil
                awaitingFirstSort = false
            } else if sortRank != nil {
                pendingSelection = nil
            }
        } else if let previous, let index = rows.firstIndex(of: previous) {
            listCursor.selected = index
        } else {
            listCursor = ListCursor()
        }
        listCursor.clamp(count: rows.count, rows: pageRows(.list))
    }

    var selectedEntryPosition: Int? {
        listCursor.selected < visible.count ? visible[listCursor.selected] : nil
    }

    /// The common elements of two ascending position lists.
    static func intersect(_ first: [Int], _ second: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(min(first.count, second.count))
        var i = 0, j = 0
        while i < first.count && j < second.count {
            if first[i] == second[j] {
                result.append(first[i])
                i += 1
                j += 1
            } else if first[i] < second[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }

    mutating func clampCursors() {
        listCursor.clamp(count: visible.count, rows: pageRows(.list))
        groupCursor.clamp(count: groupRows.count, rows: pageRows(.groups))
        if Layout(width: width, height: height, focus: focus).rect(of: focus) == nil { focus = .list }
    }
}
