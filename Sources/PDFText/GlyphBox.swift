/// A rectangle around one character on a page, in points from the page's top left corner
/// (y grows downwards).
struct GlyphBox: Equatable {
    var x1: Double
    var y1: Double
    var x2: Double
    var y2: Double

    var width: Double { x2 - x1 }
    var height: Double { y2 - y1 }
    var centerY: Double { (y1 + y2) / 2 }

    /// The smallest box around both.
    func union(_ other: GlyphBox) -> GlyphBox {
        GlyphBox(x1: min(x1, other.x1), y1: min(y1, other.y1), x2: max(x2, other.x2), y2: max(y2, other.y2))
    }
}
