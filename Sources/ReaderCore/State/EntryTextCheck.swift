import BibModel
import Foundation

/// An entry as the user saved it in `$EDITOR`, checked against its text before: refused with
/// `file:line:col` where it does not read as one BibTeX entry of the same key and type, else
/// the differences of its fields as edits (`setField`, `removeField`).
struct EntryTextCheck {
    enum Outcome: Equatable {
        case refused(String)
        case unchanged
        case edits([EntryEdit])
    }

    let outcome: Outcome

    /// `headerLines`: lines the editor's file shows above `edited` (the note), counted in
    /// the line numbers of a refusal so that they are the file's.
    init(original: String, edited: String, fileName: String, headerLines: Int) {
        let library = Library.parse([(path: fileName, bytes: Array(edited.utf8))])
        if let error = library.diagnostics.first(where: { $0.severity == .error }) {
            let location = error.location
            outcome = .refused("\(fileName):\(location.line + headerLines):\(location.column): \(error.message)")
            return
        }
        guard library.entries.count == 1, let entry = library.entries.first else {
            outcome = .refused("\(fileName): the file must hold one entry, and it holds \(library.entries.count)")
            return
        }
        guard let old = Library.parse([(path: fileName, bytes: Array(original.utf8))]).entries.first else {
            outcome = .refused("\(fileName): the entry as the library has it could not be read")
            return
        }
        guard entry.key == old.key else {
            outcome = .refused("\(fileName):\(entry.location.line + headerLines): the cite key cannot be changed here (it was \(old.key)); change it back, or rename it in the .bib itself")
            return
        }
        guard entry.type == old.type else {
            outcome = .refused("\(fileName):\(entry.location.line + headerLines): the entry type cannot be changed here (it was @\(old.type)); change it back, or change it in the .bib itself")
            return
        }
        let before = EntryTextCheck.ownFields(of: old)
        let after = EntryTextCheck.ownFields(of: entry)
        var edits: [EntryEdit] = []
        for (lower, field) in after.values.sorted(by: { $0.order < $1.order }).map({ ($0.name.lowercased(), $0) })
            where before[lower]?.value != field.value {
            edits.append(.setField(field.name, to: field.value))
        }
        for (lower, field) in before.sorted(by: { $0.value.order < $1.value.order }) where after[lower] == nil {
            edits.append(.removeField(field.name))
        }
        outcome = edits.isEmpty ? .unchanged : .edits(edits)
    }

    /// The entry's own fields by lower-case name (the first of duplicates): spelling, raw value, order.
    private static func ownFields(of entry: Entry) -> [String: (name: String, value: String, order: Int)] {
        var fields: [String: (name: String, value: String, order: Int)] = [:]
        for (order, field) in entry.fields.enumerated() where !field.isInherited {
            let lower = entry.name(of: field)
            if fields[lower] == nil { fields[lower] = (entry.spelledName(of: field), entry.rawText(of: field), order) }
        }
        return fields
    }
}
