/// A note on its own in the tree (not tied to a page).
public struct Notemark: Sendable, Equatable {
    public var name: String
    public var text: String

    public init(name: String, text: String) {
        self.name = name
        self.text = text
    }
}
