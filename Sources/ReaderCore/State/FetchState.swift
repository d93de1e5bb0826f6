import BibModel
import Foundation
import ReadingList

/// A PDF downloading from the library's remote, to be opened when it arrives.
public struct FetchState: Sendable, Equatable {
    public let path: String
    /// The reference to open.
    public let address: EntryAddress
    public let title: String
    /// The page to open it at (a bookmark's, a link's); nil resumes where it was read.
    public var page: PageRequest? = nil
    public var bytes: Int64 = 0
    public var total: Int64?
}
