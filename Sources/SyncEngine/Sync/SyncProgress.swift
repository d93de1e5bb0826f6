import BibModel
import Foundation

/// Bytes so far, for one file and for the whole sync.
public struct SyncProgress: Sendable, Equatable {
    public var path: String
    public var fileBytes: Int64
    public var fileTotal: Int64?
    public var doneBytes: Int64
    public var totalBytes: Int64
    /// Bytes a second that arrived in this run, over this run's downloads so far: the bytes of
    /// a `.part` kept from an earlier run and resumed are not counted.
    public var rate: Double
}
