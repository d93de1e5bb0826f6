import BibModel
import BibreadValues
import Foundation

/// The groups pane: its rows, expanding and collapsing, and showing a group's members.
extension AppState {
    var selectedGroupRow: GroupRow? {
        groupCursor.selected < groupRows.count ? groupRows[groupCursor.selected] : nil
    }

    /// Flattens the group tree by what is expanded.
    mutating func rebuildGroupRows() {
        let selectedRow = selectedGroupRow
        var rows: [GroupRow] = []
        func add(_ group: Group, parent: GroupID?, depth: Int) {
            let id = AppState.id(of: group, in: parent)
            rows.append(GroupRow(id: id, name: group.name, depth: depth, kind: group.kind,
                                 hasChildren: !group.children.isEmpty, unavailableReason: group.unavailableReason))
            if expandedGroups.contains(id) {
                for child in group.children { add(child, parent: id, depth: depth + 1) }
            }
        }
        // With several files open, the groups each file keeps come together under its name,
        // where the first of them would be.
        let openFiles = library?.files.map(\.source.path) ?? []
        let files = openFiles.count > 1 ? openFiles : []
        var filesShown = false
        for group in groups {
            guard group.sourceFile != nil, !files.isEmpty else {
                add(group, parent: nil, depth: 0)
                continue
            }
            guard !filesShown else { continue }
            filesShown = true
            for file in files where groups.contains(where: { $0.sourceFile == file }) {
                rows.append(GroupRow(id: nil, name: (file as NSString).lastPathComponent, depth: 0,
                                     kind: .builtin, hasChildren: false, unavailableReason: nil))
                for kept in groups where kept.sourceFile == file { add(kept, parent: nil, depth: 0) }
            }
        }
        // bibread's own "Recently read" goes after the other built-in groups.
        let afterBuiltIns = rows.lastIndex { $0.kind == .builtin && $0.depth == 0 && !$0.isHeading }.map { $0 + 1 } ?? 0
        rows.insert(GroupRow(id: .builtIn(.recentlyRead), name: BuiltInGroup.recentlyRead.name, depth: 0, kind: .builtin,
                             hasChildren: false, unavailableReason: nil), at: afterBuiltIns)
        if !editing.conflicts.isEmpty {
            // A synced library's conflicts, while there are some, after Recently read.
            rows.insert(GroupRow(id: .builtIn(.conflicts), name: BuiltInGroup.conflicts.name, depth: 0, kind: .builtin,
                                 hasChildren: false, unavailableReason: nil), at: afterBuiltIns + 1)
        }
        if linkTargets != nil {
            // The references of the link bibread was opened with, first.
            rows.insert(GroupRow(id: .builtIn(.fromLink), name: BuiltInGroup.fromLink.name, depth: 0, kind: .builtin,
                                 hasChildren: false, unavailableReason: nil), at: 0)
        }
        groupRows = rows
        if let selectedRow, let index = rows.firstIndex(where: { $0.id == selectedRow.id && $0.name == selectedRow.name }) {
            groupCursor.selected = index
        } else if let index = rows.firstIndex(where: { $0.id == activeGroup }) {
            groupCursor.selected = index
        }
        groupCursor.clamp(count: rows.count, rows: pageRows(.groups))
    }

    /// Whether a group path (`Parent/Child`) names a group of the tree.
    /// The identifier of a group of the tree, inside `parent` (nil: at the top): a built-in
    /// group's is its case, another's the path of names to it (never parsed from its name, so
    /// that a library's own group named like a built-in one stays its own).
    public static func id(of group: Group, in parent: GroupID?) -> GroupID {
        if let parent { return parent.child(named: group.name) }
        if group.kind == .builtin, let builtIn = BuiltInGroup(named: group.name) { return .builtIn(builtIn) }
        return .path([group.name])
    }

    /// Whether the tree has the group `id` names (exactly: its names, in their case).
    static func groupExists(_ id: GroupID, in groups: [Group], parent: GroupID? = nil) -> Bool {
        groups.contains { group in
            let own = AppState.id(of: group, in: parent)
            return own == id || (id.isInside(own) && groupExists(id, in: group.children, parent: own))
        }
    }

    mutating func expand(_ group: GroupID) -> [Effect] {
        expandedGroups.insert(group)
        rebuildGroupRows()
        let children = groupRows.compactMap(\.id).filter { $0.isInside(group) && groupCounts[$0] == nil }
        return children.isEmpty ? [] : [.library(.countGroups(children))]
    }

    mutating func collapseOrGoToParent() {
        guard let row = selectedGroupRow else { return }
        if let id = row.id, row.hasChildren && expandedGroups.contains(id) {
            expandedGroups.remove(id)
            rebuildGroupRows()
        } else if row.depth > 0, let parent = groupRows[..<groupCursor.selected].lastIndex(where: { $0.depth < row.depth }) {
            groupCursor.selected = parent
            groupCursor.clamp(count: groupRows.count, rows: pageRows(.groups))
        }
    }

    /// The groups of the rows (to count), leaving out the files' headings.
    var countableGroups: [GroupID] {
        groupRows.compactMap(\.id)
    }

    /// Shows the members of `group` in the list.
    mutating func activateGroup(_ group: GroupID) -> [Effect] {
        if let row = groupRows.first(where: { $0.id == group }), let reason = row.unavailableReason {
            message = StatusMessage(reason, isError: true)
            return []
        }
        activeGroup = group
        listCursor = ListCursor()
        detailsScroll = 0
        if group == .all, let library {
            groupMembers = Array(library.entries.indices)
            refreshVisible()
            return [.app(.saveSession)]
        }
        if group == .builtIn(.recentlyRead) {
            refreshRecentlyRead()
            return [.app(.saveSession)]
        }
        if group == .builtIn(.fromLink) {
            refreshLinkGroup()
            return []
        }
        if group == .builtIn(.conflicts) {
            refreshConflictsGroup()
            return [.app(.saveSession)]
        }
        groupMembers = nil
        refreshVisible()
        return [.library(.computeGroupMembers(group)), .app(.saveSession)]
    }
}
