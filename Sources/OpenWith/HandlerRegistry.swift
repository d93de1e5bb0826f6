import BibModel
import TOMLKit

/// The "open with" registry: the shipped handlers, extended and overridden by the user's.
public struct HandlerRegistry: Sendable, Equatable {
    /// Every entry, shipped ones first in their order (an overridden one keeps its place), then
    /// the user's new ones in theirs.
    public private(set) var entries: [HandlerEntry]

    /// A registry of exactly these entries (not validated: ``load(builtin:user:userPath:)`` is
    /// the validating way in; ``CommandBuilder`` checks templates again before running).
    public init(entries: [HandlerEntry]) {
        self.entries = entries
    }

    /// The entry with this id.
    public func entry(id: String) -> HandlerEntry? {
        entries.first { $0.id == id }
    }

    /// The entries serving `intention`, in registry order; all of them for nil.
    public func entries(for intention: Intention?) -> [HandlerEntry] {
        guard let intention else { return entries }
        return entries.filter { $0.intentions.contains(intention) }
    }

    /// Loads the shipped registry, then the user's `[[handler]]` tables on top.
    ///
    /// `user` is TOML text (`config.toml` itself, whose other keys are ignored here, or a file of
    /// its own) and `userPath` names it in messages. A user table whose id is a shipped one's
    /// replaces it in place, taking the fields it leaves out from it (so `id = "zathura"` with
    /// `always_show = true` is enough); `disabled = true` removes the entry with that id. A table
    /// with a problem is skipped (an overridden shipped entry then stays) and the rest still
    /// load. Problems read `path:line:col: handler 'id': message` (`path: …` when no place is
    /// known, as for inline tables).
    public static func load(builtin: String = BuiltinHandlers.toml, user: String?, userPath: String)
        -> (registry: HandlerRegistry, problems: [String])
    {
        var loader = RegistryLoader()
        loader.apply(builtin, path: BuiltinHandlers.path, overriding: false)
        if let user { loader.apply(user, path: userPath, overriding: true) }
        return (HandlerRegistry(entries: loader.entries), loader.problems)
    }
}

/// Applies TOML sources one after the other.
struct RegistryLoader {
    var entries: [HandlerEntry] = []
    var problems: [String] = []

    /// Adds the `[[handler]]` tables of `text`; with `overriding`, a table may name an existing
    /// entry's id to change or disable it (in the shipped registry a repeated id is a mistake).
    mutating func apply(_ text: String, path: String, overriding: Bool) {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            problems.append("\(path):\(error.source.begin.line):\(error.source.begin.column): \(error.description)")
            return
        } catch {
            problems.append("\(path): \(error)")
            return
        }
        guard let value = table["handler"] else { return }
        guard let list = value.array else {
            problems.append("\(path): handlers are written as [[handler]] tables")
            return
        }
        let scanned = TOMLPlaces(text: text, arrayName: "handler")
        let places = scanned.count == list.count ? scanned : nil
        var seen: Set<String> = []
        for (index, item) in list.enumerated() {
            func report(_ issue: EntryIssue, name: String?, note: String = "") {
                let label = name.map { "handler '\($0)'" } ?? "handler #\(index + 1)"
                var location = path
                if let place = places?.place(ofTable: index, key: issue.key) { location += ":\(place.line):\(place.column)" }
                problems.append("\(location): \(label): \(issue.message)\(note)")
            }
            guard let itemTable = item.table else {
                report(EntryIssue(key: nil, message: "must be a table"), name: nil)
                continue
            }
            var decoder = EntryDecoder(table: itemTable)
            let outcome = decoder.decode { id in overriding ? entries.first { $0.id == id } : nil }
            for warning in decoder.warnings { report(warning, name: decoder.id) }
            if let id = decoder.id, seen.contains(id) {
                let message = overriding ? "an earlier table has this id too; this one applies on top of it"
                    : "an earlier table has this id too; this one replaces it"
                report(EntryIssue(key: "id", message: message), name: id)
            }
            switch outcome {
            case .entry(let entry):
                seen.insert(entry.id)
                if let position = entries.firstIndex(where: { $0.id == entry.id }) {
                    entries[position] = entry
                } else {
                    entries.append(entry)
                }
            case .disable(let id):
                seen.insert(id)
                if entries.contains(where: { $0.id == id }) {
                    entries.removeAll { $0.id == id }
                } else {
                    report(EntryIssue(key: "disabled", message: "it disables '\(id)', which is not a handler"), name: id)
                }
            case .skipped:
                let kept = decoder.id.flatMap { id in entries.contains { $0.id == id } ? id : nil }
                let note = kept != nil ? " (the table is skipped; the entry it overrides stays)" : " (the table is skipped)"
                for error in decoder.errors { report(error, name: decoder.id, note: note) }
            }
        }
    }
}
