/// A field of one reference that differs between two versions: its value before and after, as
/// written (nil: the field is absent). The pseudo-field `FieldDifference.entryType` is the entry type.
public struct FieldDifference: Sendable, Hashable {
    /// The name standing for the entry type (`@article` → `@book`).
    public static let entryType = "@type"

    /// The field's name in lower case.
    public let field: String
    public let before: String?
    public let after: String?

    public init(field: String, before: String?, after: String?) {
        self.field = field
        self.before = before
        self.after = after
    }
}
