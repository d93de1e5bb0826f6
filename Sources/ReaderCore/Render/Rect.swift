/// A rectangle of cells.
public struct Rect: Sendable, Equatable {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// Whether the cell (x, y) lies inside.
    public func contains(x column: Int, y row: Int) -> Bool {
        column >= x && column < x + width && row >= y && row < y + height
    }
}
