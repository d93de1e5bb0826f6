/// What the page numbers of a link or citation count.
///
/// What a person reads, types or cites is the printed page: `KEY:151` and `[@key, p. 151]` mean
/// the page printed 151 (its page label), which in a journal article whose pages run 151–256 is
/// the first page of the file. `KEY:#3` (in a link `KEY:%233`) forces the third page of the file.
public enum PageNumbering: String, Sendable, Hashable {
    /// Printed page numbers (page labels), as citations mean them.
    case printed
    /// Pages of the file, counted from 1 (`#N`).
    case physical
}
