import BibModel

/// One terminal cell: a grapheme cluster and its style. A wide grapheme occupies its cell and a
/// continuation cell after it (`isContinuation`), which holds no text.
public struct Cell: Hashable, Sendable {
    public var text: String
    public var style: Style
    public var isContinuation: Bool

    public init(_ text: String = " ", style: Style = .normal, isContinuation: Bool = false) {
        self.text = text
        self.style = style
        self.isContinuation = isContinuation
    }

    public static let blank = Cell()
}
