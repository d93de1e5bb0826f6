/// How a page's text is shown.
public enum ReadingMode: String, Sendable, Equatable {
    /// Paragraphs rewrapped to the window.
    case reflow
    /// The page's physical layout, scrollable sideways.
    case layout
}
