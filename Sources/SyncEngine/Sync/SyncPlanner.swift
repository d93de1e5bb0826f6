import BibModel
import Foundation

/// Which PDFs a sync brings: members of groups, references with a yes/no field set, or all.
public struct SyncSelection: Sendable, Equatable {
    public var groups: [String]
    public var field: String?
    public var allPDFs: Bool

    public init(groups: [String] = [], field: String? = nil, allPDFs: Bool = false) {
        self.groups = groups
        self.field = field
        self.allPDFs = allPDFs
    }

    /// Nothing chosen: only the .bib files sync.
    public var isEmpty: Bool { groups.isEmpty && field == nil && !allPDFs }
}

/// A PDF a sync should have in the cache, and the references that link it.
public struct PlannedFile: Sendable, Equatable {
    public var remotePath: String
    public var keys: [String]
}

/// Works out the remote paths of the chosen references' PDFs.
public enum SyncPlanner {
    /// The PDFs `selection` chooses in `library` (synced into `locations`), with one message
    /// per problem (an unknown group, a link outside the remote, an unsafe path).
    public static func plan(_ library: Library, selection: SyncSelection, locations: RemoteLocations,
                            mapping: [String: String]) -> (files: [PlannedFile], problems: [String]) {
        var problems: [String] = []
        var chosen = Set<Int>()
        if selection.allPDFs { chosen.formUnion(library.entries.indices) }
        if !selection.groups.isEmpty {
            let groups = GroupCatalog.groups(of: library)
            let context = GroupContext(library: library)
            for name in selection.groups {
                guard let group = Group.find(name, in: groups) else {
                    let known = groups.filter { $0.kind != .field && $0.kind != .builtin }.map(\.name)
                    problems.append("no group named '\(name)'\(known.isEmpty ? "" : " (groups: \(known.joined(separator: ", ")))")")
                    continue
                }
                if let reason = group.unavailableReason {
                    problems.append("group '\(name)': \(reason)")
                    continue
                }
                chosen.formUnion(group.members(in: library, context: context))
            }
        }
        if let field = selection.field?.lowercased() {
            for (index, entry) in library.entries.enumerated() {
                if let value = entry.decoded(field), SmartCondition.isTrue(value) { chosen.insert(index) }
            }
        }
        var byPath: [String: [String]] = [:]
        var order: [String] = []
        for index in chosen.sorted() {
            let entry = library.entries[index]
            for file in entry.links.files where file.isPDF {
                guard let remote = locations.remotePath(ofLinked: file.path, mapping: mapping) else {
                    problems.append("\(entry.address): \(file.path) is outside the remote (add a path mapping for it in config.toml)")
                    continue
                }
                let safe: String
                do {
                    safe = try RemotePath.validated(remote)
                } catch {
                    problems.append("\(entry.address): \(error)")
                    continue
                }
                if byPath[safe] == nil { order.append(safe) }
                byPath[safe, default: []].append(entry.address)
            }
        }
        return (order.map { PlannedFile(remotePath: $0, keys: byPath[$0] ?? []) }, problems)
    }
}
