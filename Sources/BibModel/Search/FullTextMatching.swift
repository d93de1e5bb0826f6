/// Answers the `text:` terms of a query from the full-text index of the PDFs.
public protocol FullTextMatching: Sendable {
    /// The positions (in the library's entries) of the references whose PDFs contain `term`.
    func entries(matching term: FullTextTerm) -> Set<Int>
}
