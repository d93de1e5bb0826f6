import BibModel
import BibreadValues
import TOMLKit

/// Reads one `[[handler]]` table into an entry, on top of the entry it overrides (if any).
struct EntryDecoder {
    /// What a table says.
    enum Outcome {
        /// An entry to add, or to put in place of the one with its id.
        case entry(HandlerEntry)
        /// `disabled = true`: remove the entry with this id.
        case disable(String)
        /// Unusable; the problems say why.
        case skipped
    }

    /// The keys a table may have.
    static let knownKeys: Set<String> = [
        "id", "name", "argv", "stdin", "intentions", "style", "package", "always_show", "program_env", "disabled",
    ]

    /// The table's id, when it has a usable one (for messages).
    private(set) var id: String?
    /// Problems that make the table unusable.
    private(set) var errors: [EntryIssue] = []
    /// Problems that do not (an unknown key).
    private(set) var warnings: [EntryIssue] = []

    private let table: TOMLTable

    init(table: TOMLTable) {
        self.table = table
    }

    /// Decodes the table; `existing` finds the entry an id currently names (the shipped one a
    /// user table overrides), whose fields fill those the table leaves out.
    mutating func decode(existing: (String) -> HandlerEntry?) -> Outcome {
        for key in table.keys.sorted() where !EntryDecoder.knownKeys.contains(key) {
            warnings.append(EntryIssue(key: key, message: "unknown key '\(key)' is ignored (known: \(EntryDecoder.knownKeys.sorted().joined(separator: ", ")))"))
        }
        guard let id = string("id") else {
            if table["id"] == nil { errors.append(EntryIssue(key: nil, message: "it has no id")) }
            return .skipped
        }
        self.id = id
        if bool("disabled") == true { return errors.isEmpty ? .disable(id) : .skipped }
        let base = existing(id)
        var entry = base ?? HandlerEntry(id: id, name: id, argv: [], intentions: [], style: .detached)
        entry.id = id
        if let name = string("name") { entry.name = name }
        if let argv = strings("argv") { entry.argv = argv }
        if let input = string("stdin") { entry.standardInput = input.isEmpty ? nil : input }
        if let names = strings("intentions") {
            var intentions: [Intention] = []
            for name in names {
                if let intention = Intention(rawValue: name) {
                    if !intentions.contains(intention) { intentions.append(intention) }
                } else {
                    errors.append(EntryIssue(key: "intentions", message: "unknown intention '\(name)' (known: \(Intention.allCases.map(\.rawValue).joined(separator: ", ")))"))
                }
            }
            entry.intentions = intentions
        }
        if let name = string("style") {
            if let style = HandlerStyle(rawValue: name) {
                entry.style = style
            } else {
                errors.append(EntryIssue(key: "style", message: "unknown style '\(name)' (known: \(HandlerStyle.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
        }
        if let package = string("package") { entry.package = package.isEmpty ? nil : package }
        if let flag = bool("always_show") { entry.alwaysShow = flag }
        if let variable = string("program_env") { entry.programVariable = variable.isEmpty ? nil : variable }
        // The entry's own checks too, so that one pass reports every mistake; a key already
        // reported as unreadable is not reported again.
        let unreadable = Set(errors.compactMap(\.key))
        errors += entry.issues().filter { issue in issue.key.map { !unreadable.contains($0) } ?? true }
        return errors.isEmpty ? .entry(entry) : .skipped
    }

    private mutating func string(_ key: String) -> String? {
        guard let value = table[key] else { return nil }
        guard let text = value.string else {
            errors.append(EntryIssue(key: key, message: "\(key) must be a string"))
            return nil
        }
        return text
    }

    private mutating func strings(_ key: String) -> [String]? {
        guard let value = table[key] else { return nil }
        guard let list = value.array else {
            errors.append(EntryIssue(key: key, message: "\(key) must be a list of strings, such as [\"a\", \"b\"]"))
            return nil
        }
        var texts: [String] = []
        for item in list {
            guard let text = item.string else {
                errors.append(EntryIssue(key: key, message: "\(key) must be a list of strings, such as [\"a\", \"b\"]"))
                return nil
            }
            texts.append(text)
        }
        return texts
    }

    private mutating func bool(_ key: String) -> Bool? {
        guard let value = table[key] else { return nil }
        guard let flag = value.bool else {
            errors.append(EntryIssue(key: key, message: "\(key) must be true or false"))
            return nil
        }
        return flag
    }
}
