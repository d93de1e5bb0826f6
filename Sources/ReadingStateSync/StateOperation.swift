import Foundation

/// One change to the reading state, made on one machine at one hybrid timestamp.
///
/// The machine is the timestamp's `machine`. Operations are merged by `ReadingStateReplica`;
/// each is applied at most once in effect (applying it again changes nothing).
public struct StateOperation: Hashable, Codable, Sendable {
    /// When and where the change was made (its machine is `timestamp.machine`).
    public let timestamp: HybridTimestamp
    /// What changed.
    public let change: Change

    /// An operation from its timestamp and change.
    public init(timestamp: HybridTimestamp, change: Change) {
        self.timestamp = timestamp
        self.change = change
    }

    /// The machine that made this operation.
    public var machine: MachineID { timestamp.machine }

    /// What an operation changes.
    public enum Change: Hashable, Codable, Sendable {
        /// The reading position in a document (by content fingerprint): a page (1-based) and the
        /// scroll within it (0 = top, 1 = bottom).
        case setPosition(fingerprint: String, page: Int, scroll: Double)
        /// When a reference (by cite key) was last read in a document (by content fingerprint),
        /// in milliseconds since 1970.
        case setReadTime(fingerprint: String, citeKey: String, readAt: Int64)
        /// A new node of the bookmark tree, with a random id, under `parent` (nil: the root), at
        /// `position` (a key ordered as text among its siblings).
        case addNode(id: NodeID, kind: NodeKind, parent: NodeID?, position: String, name: String, target: String?)
        /// A node's new name.
        case renameNode(id: NodeID, name: String)
        /// A node's new parent (nil: the root) and position among its siblings.
        case moveNode(id: NodeID, parent: NodeID?, position: String)
        /// Removes a node: the adds of it the remover had seen (`observedAdds`) and the
        /// placement (add or move) it had seen last (`observedPlacement`).
        case removeNode(id: NodeID, observedAdds: [HybridTimestamp], observedPlacement: HybridTimestamp?)
        /// A page note's text (empty: the note removed), on a page of a reference (by cite key, in
        /// lower case), replacing the versions the writer had
        /// seen (`supersedes`).
        case setNote(citeKey: String, page: Int, text: String, supersedes: [HybridTimestamp])
        /// The name the operation's machine goes by (`device_name`): only a machine's own
        /// operations name it.
        case setDeviceName(name: String)
    }
}

/// The random id of a node of the bookmark tree.
public struct NodeID: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    /// The id's text (1 to 64 characters: a-z, 0-9, -).
    public let rawValue: String

    /// An id from its text, or nil when it is not 1 to 64 characters of a-z, 0-9 and -.
    public init?(rawValue: String) {
        guard MachineID.problem(with: rawValue) == nil else { return nil }
        self.rawValue = rawValue
    }

    /// A new random id.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> NodeID {
        NodeID(validated: MachineID.random(using: &generator).rawValue)
    }

    /// A new random id from the system's generator.
    public static func random() -> NodeID {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    private init(validated: String) { rawValue = validated }

    public static func < (lhs: NodeID, rhs: NodeID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }

    public init(from decoder: Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        if let problem = MachineID.problem(with: text) {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: problem.replacingOccurrences(of: "machine", with: "node")))
        }
        rawValue = text
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// What a node of the bookmark tree is.
public enum NodeKind: String, Hashable, Codable, Sendable {
    /// A bookmark to a reference or a place in a document.
    case bookmark
    /// A folder of nodes.
    case folder
    /// A bookmark that carries a note.
    case notemark
}
