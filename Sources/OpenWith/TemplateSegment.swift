import BibreadValues

/// One piece of a parsed template: literal text or a placeholder.
enum TemplateSegment: Equatable, Sendable {
    case literal(String)
    case placeholder(Placeholder)
}
