/// A run of characters in one font: scalars `first...last` of a page's text.
struct FontRun: Equatable {
    var name: String
    var size: Double
    var first: Int
    var last: Int
}
