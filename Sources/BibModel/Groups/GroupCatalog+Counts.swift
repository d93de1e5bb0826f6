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
        let counts = LockedValue([Int?](repeating: nil, count: groups.count))
        takeJobs(groups.count, workers: workers) { position in
            let group = groups[position]
            guard group.unavailableReason == nil else { return }
            let count = group.members(in: library, context: context).count
            counts.withLock { $0[position] = count }
        }
        return counts.withLock { $0 }
    }

    /// Calls `body` with each of `0..<count` on `workers` threads, each taking the next number
    /// from a shared counter when it is done with one (the first numbers are taken first).
    private static func takeJobs(_ count: Int, workers: Int, _ body: @Sendable (Int) -> Void) {
        let next = LockedValue(0)
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let position = next.withLock { next -> Int in
                    defer { next += 1 }
                    return next
                }
                guard position < count else { return }
                body(position)
            }
        }
    }

    /// The field groups of `library` and the counts of `saved` (the built-in groups and those
    /// the .bib files keep, from `savedGroups(of:synced:)`) then of the field groups, each group
    /// before its children (`memberCounts(of: flattened(saved + fieldGroups), …)`).
    ///
    /// One list of independent jobs, taken by one worker a core from a shared counter, the
    /// largest first: each field group (its index, its sorted names, its counts) and each saved
    /// group's count, each job on its worker's thread alone. Before, the saved groups were
    /// counted on a thread of their own while each field's index was split between the cores,
    /// and a scan started inside either ran on one core (a nested `concurrentPerform` is
    /// serial): `bibread groups` kept 1.4 cores of 2 busy.
    public static func fieldGroupsAndCounts(of library: Library, saved: [Group], context: GroupContext)
        -> (fieldGroups: [Group], counts: [Int?]) {
        let flatSaved = flattened(saved)
        let fields = fieldGroupFields
        let workers = EntryScan.partCount(library.entries.count, threads: context.threads)
        guard workers > 1 else {
            let fieldGroups = fieldGroups(of: library, context: context)
            let counts = memberCounts(of: flatSaved + flattened(fieldGroups), in: library, context: context)
            return (fieldGroups, counts)
        }
        // The authors (the largest job: a third of the work) first, then the saved groups (a
        // worker that finds a column another is working out waits for it, so the two groups of
        // one column are a few jobs apart), then the other fields.
        let jobs: [CountJob] = [.field(0)] + flatSaved.indices.map { .saved($0) } + fields.indices.dropFirst().map { .field($0) }
        let alone = context.onCallingThread()
        let state = LockedValue(CountJobs(savedCount: flatSaved.count, fieldCount: fields.count))
        takeJobs(jobs.count, workers: workers) { position in
            switch jobs[position] {
            case .saved(let number):
                let group = flatSaved[number]
                guard group.unavailableReason == nil else { return }
                let count = group.members(in: library, context: alone).count
                state.withLock { $0.savedCounts[number] = count }
            case .field(let number):
                let counted = countedFieldGroup(fields[number].0, field: fields[number].1, in: library, context: alone)
                state.withLock { $0.fields[number] = counted }
            }
        }
        let done = state.withLock { $0 }
        let counted = done.fields.compactMap { $0 }
        return (counted.map(\.group), done.savedCounts + counted.flatMap(\.counts))
    }

    /// The field group of `field` under `title` (`fieldGroup(_:field:in:context:)`) and the
    /// counts of it and its children, each read from the field's index (what `members(in:context:)`
    /// gives for each: the references with a value, and those with each value; the tests compare them).
    static func countedFieldGroup(_ title: String, field: String, in library: Library, context: GroupContext)
        -> (group: Group, counts: [Int?]) {
        let group = fieldGroup(title, field: field, in: library, context: context)
        let index = context.valueIndex("field " + field, extract: fieldExtract(field))
        var hasValue = [Bool](repeating: false, count: context.referenceCount)
        var withValue = 0
        for positions in index.values {
            for position in positions where !hasValue[position] {
                hasValue[position] = true
                withValue += 1
            }
        }
        var counts: [Int?] = [withValue]
        counts.reserveCapacity(group.children.count + 1)
        for child in group.children {
            guard case .value(let value, _, _) = child.rule else { continue }
            counts.append(index[value]?.count ?? 0)
        }
        return (group, counts)
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

/// A job of `GroupCatalog.fieldGroupsAndCounts`: a field group (by its place in
/// `fieldGroupFields`) or a saved group's count (by its place among the saved groups, flattened).
private enum CountJob {
    case field(Int)
    case saved(Int)
}

/// What the workers of `GroupCatalog.fieldGroupsAndCounts` share: each job's result.
private struct CountJobs {
    var savedCounts: [Int?]
    var fields: [(group: Group, counts: [Int?])?]

    init(savedCount: Int, fieldCount: Int) {
        savedCounts = [Int?](repeating: nil, count: savedCount)
        fields = [(group: Group, counts: [Int?])?](repeating: nil, count: fieldCount)
    }
}
