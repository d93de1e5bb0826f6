import BibModel
import ReaderCore

/// The text `bibread groups` prints: one line per group, its name indented by depth and padded
/// to 48 columns, its count right-aligned in 7, and why it cannot be shown here if so.
///
/// Written as bytes: a label of printable ASCII (nearly every one) is measured and padded byte
/// by byte, any other through `DisplayWidth`, as every label was before (building each line as
/// strings of strings was a fifth of the command's work on a 46k-reference library);
/// `GroupTreeTextTests` compares the two.
enum GroupTreeText {
    /// The columns a label is padded (or cut) to.
    static let labelWidth = 48

    /// The lines of `groups` and their children, each ending in a line feed; `counts` gives the
    /// counts in the order of the tree (`GroupCatalog.flattened`).
    static func bytes(of groups: [Group], counts: [Int?]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(counts.count * 64)
        var counts = counts.makeIterator()
        for group in groups { append(group, depth: 0, counts: &counts, to: &output) }
        // No group at all is one empty line, as a line of no lines was printed before.
        if output.isEmpty { output.append(0x0A) }
        return output
    }

    private static func append(_ group: Group, depth: Int, counts: inout IndexingIterator<[Int?]>, to output: inout [UInt8]) {
        let label = String(repeating: "  ", count: depth) + group.name + suffix(of: group)
        appendPadded(label, to: &output)
        output.append(0x20)
        let count = (counts.next() ?? nil).map(String.init) ?? "—"
        // A count is digits, or the one character `—`.
        let countWidth = count == "—" ? 1 : count.utf8.count
        if countWidth < 7 { output.append(contentsOf: repeatElement(0x20, count: 7 - countWidth)) }
        output.append(contentsOf: count.utf8)
        if let reason = group.unavailableReason {
            output.append(contentsOf: "  ".utf8)
            output.append(contentsOf: reason.utf8)
        }
        output.append(0x0A)
        for child in group.children { append(child, depth: depth + 1, counts: &counts, to: &output) }
    }

    /// The same text built line by line as strings, every label through `DisplayWidth` (what
    /// the command printed before; kept for the tests that compare the two).
    static func straightforwardText(of groups: [Group], counts: [Int?]) -> String {
        var counts = counts.makeIterator()
        var lines: [String] = []
        func render(_ group: Group, depth: Int) {
            let label = String(repeating: "  ", count: depth) + group.name + suffix(of: group)
            let count = (counts.next() ?? nil).map(String.init) ?? "—"
            lines.append(DisplayWidth.pad(label, to: labelWidth) + " " + String(repeating: " ", count: max(0, 7 - count.count)) + count
                + (group.unavailableReason.map { "  \($0)" } ?? ""))
            for child in group.children { render(child, depth: depth + 1) }
        }
        for group in groups { render(group, depth: 0) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What follows a group's name: its kind, for groups a library keeps.
    static func suffix(of group: Group) -> String {
        switch group.kind {
        case .static, .smart, .jabref, .url, .script: return "  (\(group.kind.rawValue))"
        case .builtin, .field: return ""
        }
    }

    /// `DisplayWidth.pad(label, to: labelWidth)`, appended.
    static func appendPadded(_ label: String, to output: inout [UInt8]) {
        let bytes = label.utf8
        // Printable ASCII: each byte is one character of one column.
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            // A label that fits is not cut: `pad` gives it with the columns left as spaces.
            let width = DisplayWidth.of(label)
            guard width <= labelWidth else {
                output.append(contentsOf: DisplayWidth.pad(label, to: labelWidth).utf8)
                return
            }
            output.append(contentsOf: bytes)
            output.append(contentsOf: repeatElement(0x20, count: labelWidth - width))
            return
        }
        if bytes.count > labelWidth {
            output.append(contentsOf: bytes.prefix(labelWidth - 1))
            output.append(contentsOf: "…".utf8)
        } else {
            output.append(contentsOf: bytes)
            output.append(contentsOf: repeatElement(0x20, count: labelWidth - bytes.count))
        }
    }
}
