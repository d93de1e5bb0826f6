import BibModel
import BibreadValues
import TOMLKit

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
