import Foundation
import PropertyList

/// A problem with a link field, reported by `bibread check`.
public struct LinkProblem: Sendable, Hashable {
    public let field: String
    public let message: String
}
