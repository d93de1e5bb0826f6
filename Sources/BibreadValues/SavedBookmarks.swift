import Foundation
import ReadingList

/// The user's bookmark tree: the top-level nodes of an implicit root folder.
public struct SavedBookmarks: Sendable, Equatable {
    public var nodes: [SavedNode]

    public init(nodes: [SavedNode] = []) {
        self.nodes = nodes
    }

    /// Every node, depth first.
    public var allNodes: [SavedNode] {
        var result: [SavedNode] = []
        func collect(_ nodes: [SavedNode]) {
            for node in nodes {
                result.append(node)
                collect(node.children)
            }
        }
        collect(nodes)
        return result
    }

    /// The node with `id`, anywhere in the tree.
    public func node(id: Int64) -> SavedNode? {
        allNodes.first { $0.id == id }
    }

    /// The folder a path of names leads to (`Course/Week 1`; each name exact, else ignoring
    /// case); nil for the empty path or when there is no such folder.
    public func folder(atPath path: String) -> SavedNode? {
        var children = nodes
        var found: SavedNode?
        for name in SavedBookmarks.names(inPath: path) {
            let folders = children.filter { $0.kind == .folder }
            guard let next = folders.first(where: { $0.name == name }) ?? folders.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                return nil
            }
            found = next
            children = next.children
        }
        return found
    }

    /// The folder names of a path (`Course / Week 1` gives `Course`, `Week 1`); none for the top level.
    public static func names(inPath path: String) -> [String] {
        path.split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// The path of names from the top down to the node `id` included (`Course/Week 1`).
    public func path(of id: Int64) -> String {
        (ancestorNodes(of: id) + [node(id: id)].compactMap { $0 }).map(\.name).joined(separator: "/")
    }

    /// The folders from the top down to the node `id` (not included).
    public func ancestorNodes(of id: Int64) -> [SavedNode] {
        func search(_ nodes: [SavedNode], path: [SavedNode]) -> [SavedNode]? {
            for node in nodes {
                if node.id == id { return path }
                if let found = search(node.children, path: path + [node]) { return found }
            }
            return nil
        }
        return search(nodes, path: []) ?? []
    }

    /// The cite keys that have at least one bookmark, lower-cased (keys compare without case).
    public var bookmarkedKeys: Set<String> {
        Set(allNodes.compactMap { $0.reference?.citeKey.lowercased() })
    }

    /// The bookmarks whose pages include `page` of the paper `citeKey`.
    public func bookmarks(citeKey: String, page: Int) -> [SavedNode] {
        let key = citeKey.lowercased()
        return allNodes.filter { node in
            guard let reference = node.reference else { return false }
            return reference.citeKey.lowercased() == key && reference.pages.contains(page)
        }
    }
}
