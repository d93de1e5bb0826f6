import ArgumentParser
import BibModel
import ReaderCore
import SyncEngine

/// `bibread groups`: the group tree with member counts.
struct GroupsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "groups",
        abstract: "Show the group tree with member counts.",
        discussion: """
        Built-in groups (All, With PDF, Without PDF, Unread, Recently added), the groups BibDesk \
        keeps in the .bib (static and smart; URL and script groups are listed but cannot run \
        here), and browsable groups by author, keyword, year, journal and type. \
        'bibread list LIB --group NAME' lists a group's members (nested groups as Parent/Child).
        """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Print the tree as JSON: name, kind, count, children.")
    var json = false

    func validate() throws {
        if library.libraries.isEmpty { throw ValidationError("name at least one .bib file") }
    }

    func run() throws {
        let loaded = try library.load()
        let context = GroupContext(library: loaded.library, locator: LinkedFileLocator.shared)
        let groups = GroupCatalog.savedGroups(of: loaded.library, synced: LinkedFileLocator.shared.isSynced(loaded.library))
            + GroupCatalog.fieldGroups(of: loaded.library, context: context)
        // Counted first, on every core, then printed in the tree's order.
        var counts = GroupCatalog.memberCounts(of: GroupCatalog.flattened(groups), in: loaded.library, context: context)
            .makeIterator()
        if json {
            var writer = JSONWriter()
            defer { writer.deallocate() }
            writer.beginArray()
            for group in groups { Self.write(group, counts: &counts, to: &writer) }
            writer.endArray()
            writer.newline()
            Console.write(writer.bytes)
        } else {
            var lines: [String] = []
            for group in groups { Self.render(group, depth: 0, counts: &counts, into: &lines) }
            Console.print(lines.joined(separator: "\n"))
        }
        try loaded.exitIfSomeFilesFailed()
    }

    /// `counts` gives the groups' counts in the order of the tree (`GroupCatalog.flattened`).
    private static func render(_ group: Group, depth: Int, counts: inout IndexingIterator<[Int?]>, into lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        let label = indent + group.name + ([.static, .smart, .jabref, .url, .script].contains(group.kind)
            ? "  (\(group.kind.rawValue))" : "")
        let count = (counts.next() ?? nil).map(String.init) ?? "—"
        lines.append(DisplayWidth.pad(label, to: 48) + " " + String(repeating: " ", count: max(0, 7 - count.count)) + count
            + (group.unavailableReason.map { "  \($0)" } ?? ""))
        for child in group.children { render(child, depth: depth + 1, counts: &counts, into: &lines) }
    }

    private static func write(_ group: Group, counts: inout IndexingIterator<[Int?]>, to json: inout JSONWriter) {
        json.beginObject()
        json.key("name"); json.string(group.name)
        json.key("kind"); json.string(group.kind.rawValue)
        json.key("count"); json.integer((counts.next() ?? nil) ?? 0)
        if let reason = group.unavailableReason {
            json.key("available"); json.bool(false)
            json.key("reason"); json.string(reason)
        }
        json.key("children")
        json.beginArray()
        for child in group.children { write(child, counts: &counts, to: &json) }
        json.endArray()
        json.endObject()
    }
}
