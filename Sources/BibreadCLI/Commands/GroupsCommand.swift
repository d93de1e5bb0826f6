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
        let saved = GroupCatalog.savedGroups(of: loaded.library, synced: LinkedFileLocator.shared.isSynced(loaded.library))
        // The saved groups are counted while the field groups are read, then the field groups;
        // the counts are printed in the tree's order.
        let (fieldGroups, counts) = GroupCatalog.fieldGroupsAndCounts(of: loaded.library, saved: saved, context: context)
        let groups = saved + fieldGroups
        // Freeing the library, the context's columns and 35k groups one by one at the end was 2%.
        defer { ExitReclaim.leave((loaded, context, groups)) }
        if json {
            var writer = JSONWriter()
            defer { writer.deallocate() }
            var remaining = counts.makeIterator()
            writer.beginArray()
            for group in groups { Self.write(group, counts: &remaining, to: &writer) }
            writer.endArray()
            writer.newline()
            Console.write(writer.bytes)
        } else {
            Console.write(GroupTreeText.bytes(of: groups, counts: counts))
        }
        try loaded.exitIfSomeFilesFailed()
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
