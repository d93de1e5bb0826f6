import ReadingList

/// One node of the user's own bookmark tree, as the state store keeps it.
public struct SavedNode: Sendable, Equatable, Identifiable {
    /// What a node is.
    public enum Kind: String, Sendable {
        case folder, bookmark, notemark
    }

    /// The node's row in the store.
    public let id: Int64
    public var kind: Kind
    public var name: String
    /// The pages a bookmark points at (nil for folders and notemarks).
    public var reference: PageReference?
    /// A notemark's text.
    public var text: String?
    /// A folder's children, in order.
    public var children: [SavedNode]

    public init(id: Int64, kind: Kind, name: String, reference: PageReference? = nil, text: String? = nil, children: [SavedNode] = []) {
        self.id = id
        self.kind = kind
        self.name = name
        self.reference = reference
        self.text = text
        self.children = children
    }

    /// `knuth84 p. 12–14 · Name` for a bookmark; the name otherwise.
    public var label: String {
        guard let reference else { return name }
        let head = "\(reference.citeKey) \(reference.pageLabel)"
        return name.isEmpty ? head : "\(head) · \(name)"
    }
}
