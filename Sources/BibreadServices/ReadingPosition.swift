import BibModel
import BibreadValues
import Foundation
import GRDB
import Synchronization

/// Where a reader was in a document: the page and how far down it, saved as they read.
public struct ReadingPosition: Sendable, Equatable {
    /// The document's content fingerprint (the same for a moved or re-downloaded copy).
    public var fingerprint: String
    /// The path it was last read at.
    public var path: String
    /// The page (1-based).
    public var page: Int
    /// How far down the page, from 0 (top) to 1 (bottom): independent of the window's width.
    public var scroll: Double
    /// When it was saved (seconds since 1970).
    public var updatedAt: Double
    /// How the document was last shown (`t`: reflowed or in its layout); nil when never chosen.
    public var mode: ReadingMode?
    /// The name of the machine where it was saved, when that is another machine (the shared
    /// reading state); nil when this one.
    public var machine: String?

    public init(fingerprint: String, path: String, page: Int, scroll: Double, updatedAt: Double, mode: ReadingMode? = nil) {
        self.fingerprint = fingerprint
        self.path = path
        self.page = page
        self.scroll = scroll
        self.updatedAt = updatedAt
        self.mode = mode
    }
}
