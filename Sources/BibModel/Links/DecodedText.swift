/// Text after percent-decoding: its scalars, each with the column it came from.
struct DecodedText {
    /// The decoded scalars.
    private(set) var scalars: [Unicode.Scalar] = []
    /// The column in the text as given of each scalar (of its `%` when it was escaped).
    private(set) var columns: [Int] = []

    /// Adds `scalar`, which came from `column`.
    mutating func append(_ scalar: Unicode.Scalar, column: Int) {
        scalars.append(scalar)
        columns.append(column)
    }

    /// The decoded text.
    var string: String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars)
        return String(view)
    }
}
