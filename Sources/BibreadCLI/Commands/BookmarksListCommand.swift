import ArgumentParser
import BibModel
import BibreadServices
import BibreadValues
import Foundation
import ReadingList

struct BookmarksListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Print the bookmark tree.")

    @OptionGroup var keyCheck: KeyCheckOptions

    @Flag(help: "Print JSON: the tree in the reading-list shape, with each node's id.")
    var json = false

    func run() throws {
        let store = try openStore()
        let tree = try store.savedBookmarks()
        let library = try keyCheck.load()?.library
        let missing: (SavedNode) -> Bool = { node in
            guard let library, let key = node.reference?.citeKey else { return false }
            return library.entries(withKey: key).isEmpty
        }
        if json {
            func object(_ node: SavedNode) -> [String: Any] {
                var result: [String: Any] = ["Id": node.id, "Name": node.name]
                switch node.kind {
                case .folder:
                    result["Class"] = "Folder"
                    result["Children"] = node.children.map(object)
                case .notemark:
                    result["Class"] = "Notemark"
                    result["Text"] = node.text ?? ""
                case .bookmark:
                    result["Class"] = "Bookmark"
                    if let reference = node.reference {
                        var dictionary: [String: Any] = ["CiteKey": reference.citeKey, "Page": reference.page]
                        if let lastPage = reference.lastPage { dictionary["LastPage"] = lastPage }
                        if let printed = reference.printedPage { dictionary["PageLabel"] = printed }
                        if let name = reference.library { dictionary["Library"] = name }
                        result["Reference"] = dictionary
                    }
                    if library != nil { result["InLibrary"] = !missing(node) }
                }
                return result
            }
            let root: [String: Any] = ["Class": "Folder", "Name": "Bookmarks", "Children": tree.nodes.map(object)]
            let data = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes])
            Console.print(String(decoding: data, as: UTF8.self))
            return
        }
        if tree.nodes.isEmpty {
            Console.print("No bookmarks yet. In the reader, m bookmarks the page you read; 'bibread bookmarks import FILE|URL|LINK' imports a list.")
            return
        }
        Console.print("Bookmarks")
        func printNodes(_ nodes: [SavedNode], prefix: String) {
            for (index, node) in nodes.enumerated() {
                let last = index == nodes.count - 1
                var line = prefix + (last ? "└── " : "├── ")
                switch node.kind {
                case .folder: line += node.name + "/"
                case .notemark: line += "✎ " + node.name + ((node.text ?? "").isEmpty ? "" : ": " + Self.oneLine(node.text ?? ""))
                case .bookmark: line += node.label + (missing(node) ? "  (not in the library)" : "")
                }
                Console.print(line)
                if node.kind == .folder { printNodes(node.children, prefix: prefix + (last ? "    " : "│   ")) }
            }
        }
        printNodes(tree.nodes, prefix: "")
    }

    /// The first line of a text, cut at 60 characters.
    static func oneLine(_ text: String) -> String {
        let first = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return first.count > 60 ? String(first.prefix(59)) + "…" : first
    }
}
