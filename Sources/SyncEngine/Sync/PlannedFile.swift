import BibModel
import Foundation

/// A PDF a sync should have in the cache, and the references that link it.
public struct PlannedFile: Sendable, Equatable {
    public var remotePath: String
    public var keys: [String]
}
