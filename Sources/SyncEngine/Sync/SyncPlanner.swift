import BibModel
import Foundation

/// Works out the remote paths of the chosen references' PDFs.
public enum SyncPlanner {
    /// What `selection` names that `library` does not have, one message each: a group of no
    /// such name (with the groups there are), a field no reference has (with the yes/no fields
    /// there are). A sync or a purge that names one of them stops: it is a typo, not a choice
    /// of nothing.
    public static func unknownNames(in selection: SyncSelection, library: Library) -> [String] {
        var messages: [String] = []
        if !selection.groups.isEmpty {
            let groups = GroupCatalog.groups(of: library, synced: LinkedFileLocator.shared.isSynced(library))
            for name in selection.groups where Group.find(GroupID(path: name), in: groups) == nil {
                let known = groups.filter { $0.kind != .field && $0.kind != .builtin }.map(\.name)
                messages.append("no group named '\(name)'\(known.isEmpty ? "" : " (groups: \(known.joined(separator: ", ")))")")
            }
        }
        if let field = selection.field {
            let wanted = field.lowercased()
            let hasField = library.entries.contains { entry in entry.fields.contains { entry.name(of: $0) == wanted } }
            if !hasField {
                let known = yesNoFields(of: library)
                messages.append("no reference has a field named '\(field)'\(known.isEmpty ? "" : " (yes/no fields: \(known.joined(separator: ", ")))")")
            }
        }
        return messages
    }

    /// The fields of `library` that hold only yes/no values (`yes`, `1`, `true`, `no`, `0`…),
    /// one set at least, as first spelled; a field that also holds other values (a number,
    /// a volume) is not one.
    static func yesNoFields(of library: Library) -> [String] {
        let no: Set<String> = ["0", "n", "no", "false", "non", ""]
        var spelling: [String: String] = [:]
        var anyTrue = Set<String>()
        var other = Set<String>()
        for entry in library.entries {
            for item in entry.fields {
                let name = entry.name(of: item)
                if other.contains(name) { continue }
                let value = entry.decodedText(of: item)
                if SmartCondition.isTrue(value) {
                    anyTrue.insert(name)
                    if spelling[name] == nil { spelling[name] = entry.spelledName(of: item) }
                } else if !no.contains(value.trimmingCharacters(in: .whitespaces).lowercased()) {
                    other.insert(name)
                }
            }
        }
        return anyTrue.subtracting(other).compactMap { spelling[$0] }.sorted()
    }

    /// The PDFs `selection` chooses in `library` (synced into `locations`), with one message
    /// per problem (a link outside the remote, an unsafe path, a group that cannot be
    /// worked out). Names the library does not have choose nothing: see ``unknownNames(in:library:)``.
    public static func plan(_ library: Library, selection: SyncSelection, locations: RemoteLocations,
                            mapping: [String: String]) -> (files: [PlannedFile], problems: [String]) {
        var problems: [String] = []
        var chosen = Set<Int>()
        if selection.allPDFs { chosen.formUnion(library.entries.indices) }
        if !selection.groups.isEmpty {
            let locator = LinkedFileLocator.shared
            let groups = GroupCatalog.groups(of: library, synced: locator.isSynced(library))
            let context = GroupContext(library: library, locator: locator)
            for name in selection.groups {
                guard let group = Group.find(GroupID(path: name), in: groups) else { continue }
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
