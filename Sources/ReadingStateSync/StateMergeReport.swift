import Foundation

/// Something a merge decided that the user should hear about.
public enum StateMergeReport: Hashable, Sendable, CustomStringConvertible {
    /// A node was moved on one machine (`mover`) and deleted on another that had not seen the
    /// move: by the rule of `ReadingStateReplica`, it stays deleted.
    case movedNodeWasDeleted(id: NodeID, name: String, mover: MachineID)
    /// A page note was edited on several machines at once: every version is kept.
    case noteHasVersions(citeKey: String, page: Int, count: Int)

    public var description: String {
        switch self {
        case let .movedNodeWasDeleted(_, name, mover):
            return "\"\(name)\" was moved on machine \(mover) but deleted on another machine: it stays deleted"
        case let .noteHasVersions(_, page, count):
            return "the note on page \(page) was edited on several machines: \(count) versions kept"
        }
    }
}
