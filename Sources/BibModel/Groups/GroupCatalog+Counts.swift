import Foundation

extension GroupCatalog {
    /// How many members each of `groups` has (nil for a group that cannot be shown here), in
    /// the order given, worked out on every core (on `context.threads`): each group's count is `members(in:context:)`'s,
    /// and the columns and indexes the groups share are read once in `context`.
    public static func memberCounts(of groups: [Group], in library: Library, context: GroupContext) -> [Int?] {
        let workers = min(groups.count, EntryScan.partCount(library.entries.count, threads: context.threads))
        guard workers > 1 else {
            return groups.map { $0.unavailableReason == nil ? $0.members(in: library, context: context).count : nil }
        }
        let state = LockedValue((next: 0, counts: [Int?](repeating: nil, count: groups.count)))
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let position = state.withLock { state -> Int in
                    defer { state.next += 1 }
                    return state.next
                }
                guard position < groups.count else { return }
                let group = groups[position]
                guard group.unavailableReason == nil else { continue }
                let count = group.members(in: library, context: context).count
                state.withLock { $0.counts[position] = count }
            }
        }
        return state.withLock { $0.counts }
    }

    /// The field groups of `library` and the counts of `saved` (the built-in groups and those
    /// the .bib files keep, from `savedGroups(of:synced:)`) then of the field groups, each group
    /// before its children (`memberCounts(of: flattened(saved + fieldGroups), …)`). The saved
    /// groups are counted on a thread of their own while the field groups' indexes are read on
    /// every core: one after the other, one core waited while the other sorted the authors or
    /// finished a part (`bibread groups` ran on 1.4 cores of 2).
    public static func fieldGroupsAndCounts(of library: Library, saved: [Group], context: GroupContext)
        -> (fieldGroups: [Group], counts: [Int?]) {
        let savedCounts = LockedValue<[Int?]>([])
        let counting = DispatchGroup()
        let flatSaved = flattened(saved)
        DispatchQueue.global().async(group: counting) {
            let counts = memberCounts(of: flatSaved, in: library, context: context)
            savedCounts.withLock { $0 = counts }
        }
        let fields = fieldGroups(of: library, context: context)
        let fieldCounts = memberCounts(of: flattened(fields), in: library, context: context)
        counting.wait()
        return (fields, savedCounts.withLock { $0 } + fieldCounts)
    }

    /// Every group of the tree, each before its children.
    public static func flattened(_ groups: [Group]) -> [Group] {
        // Appended to one array: an array per group (35k of them) cost as much as counting some.
        var all: [Group] = []
        func add(_ groups: [Group]) {
            for group in groups {
                all.append(group)
                add(group.children)
            }
        }
        add(groups)
        return all
    }
}
