/// A mouse action at a cell.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case click, doubleClick, wheelUp, wheelDown
    }

    public let kind: Kind
    public let x: Int
    public let y: Int

    public init(_ kind: Kind, x: Int, y: Int) {
        self.kind = kind
        self.x = x
        self.y = y
    }
}
