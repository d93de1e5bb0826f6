import Foundation

/// The reading state merged from any set of operations, as a CRDT: applying the same operations
/// in any order, any number of times, or merging replicas in any grouping gives the same state.
///
/// The rules:
/// - Positions, read times, node names and node placements (parent and position) are
///   last-writer-wins registers: the write with the greatest `HybridTimestamp` wins.
/// - Nodes are an add-wins set with tombstones: a node exists while one of its adds has not been
///   removed. A remove removes only the adds it had seen (`observedAdds`), so an add made
///   concurrently survives it.
/// - Deleted on one machine and moved (or renamed) on another: **the delete wins**. A move does
///   not bring a node back; the node stays deleted and the move is reported
///   (`StateMergeReport.movedNodeWasDeleted`) when the remover had not seen it.
/// - A node whose parent does not exist (deleted, or not yet received) is kept; where to show it
///   is the reader's choice (`nodes` lists it with its parent id).
/// - Page notes are multi-value registers: a note written on two machines without seeing each
///   other keeps both versions, until a write that had seen them all (`supersedes`) replaces them.
/// - Operations on keys or nodes that do not exist are kept and change nothing visible until the
///   node's add arrives (operations may arrive in any order).
public struct ReadingStateReplica: Equatable, Sendable {
    /// A last-writer-wins register.
    struct Register<Value: Equatable & Sendable>: Equatable, Sendable {
        var value: Value
        var timestamp: HybridTimestamp

        mutating func write(_ newValue: Value, at newTimestamp: HybridTimestamp) {
            if newTimestamp > timestamp {
                value = newValue
                timestamp = newTimestamp
            }
        }
    }

    /// Everything known of one node, whether or not it exists.
    struct NodeRecord: Equatable, Sendable {
        var adds: [HybridTimestamp: NodeKindAndTarget] = [:]
        var removedAdds: Set<HybridTimestamp> = []
        var name: Register<String>?
        var placement: Register<Placement>?
        var placementIsMove = false
        var lastObservedPlacement: HybridTimestamp?
        var removed = false

        var exists: Bool { adds.keys.contains { !removedAdds.contains($0) } }
    }

    struct NodeKindAndTarget: Equatable, Sendable {
        var kind: NodeKind
        var target: String?
    }

    struct Placement: Equatable, Sendable {
        var parent: NodeID?
        var position: String
    }

    struct NoteKey: Hashable, Sendable {
        var citeKey: String
        var page: Int
    }

    struct NoteRecord: Equatable, Sendable {
        var versions: [HybridTimestamp: String] = [:]
        var superseded: Set<HybridTimestamp> = []
    }

    private var positions: [String: Register<ReadingPosition>] = [:]
    private var readTimes: [ReadKey: Register<Int64>] = [:]
    private var deviceNames: [MachineID: Register<String>] = [:]
    private var nodeRecords: [NodeID: NodeRecord] = [:]
    private var notes: [NoteKey: NoteRecord] = [:]
    /// The greatest timestamp seen from each machine.
    public private(set) var latestByMachine: [MachineID: HybridTimestamp] = [:]

    /// An empty state.
    public init() {}

    /// The state of `operations`, applied in order (any order gives the same state).
    public init<S: Sequence>(operations: S) where S.Element == StateOperation {
        for operation in operations { apply(operation) }
    }

    // MARK: Applying

    /// Applies one operation; applying it again changes nothing.
    public mutating func apply(_ operation: StateOperation) {
        let stamp = operation.timestamp
        if latestByMachine[stamp.machine].map({ stamp > $0 }) ?? true { latestByMachine[stamp.machine] = stamp }
        switch operation.change {
        case let .setPosition(fingerprint, page, scroll):
            let value = ReadingPosition(page: page, scroll: scroll, timestamp: stamp)
            Self.write(&positions[fingerprint], value, at: stamp)
        case let .setReadTime(fingerprint, citeKey, readAt):
            Self.write(&readTimes[ReadKey(fingerprint: fingerprint, citeKey: citeKey)], readAt, at: stamp)
        case let .setDeviceName(name):
            Self.write(&deviceNames[stamp.machine], name, at: stamp)
        case let .addNode(id, kind, parent, position, name, target):
            nodeRecords[id, default: NodeRecord()].adds[stamp] = NodeKindAndTarget(kind: kind, target: target)
            Self.write(&nodeRecords[id, default: NodeRecord()].name, name, at: stamp)
            place(id, Placement(parent: parent, position: position), at: stamp, isMove: false)
        case let .renameNode(id, name):
            Self.write(&nodeRecords[id, default: NodeRecord()].name, name, at: stamp)
        case let .moveNode(id, parent, position):
            place(id, Placement(parent: parent, position: position), at: stamp, isMove: true)
        case let .removeNode(id, observedAdds, observedPlacement):
            var record = nodeRecords[id, default: NodeRecord()]
            record.removedAdds.formUnion(observedAdds)
            record.removed = true
            record.lastObservedPlacement = Self.greatest(record.lastObservedPlacement, observedPlacement)
            nodeRecords[id] = record
        case let .setNote(citeKey, page, text, supersedes):
            var record = notes[NoteKey(citeKey: citeKey, page: page), default: NoteRecord()]
            record.versions[stamp] = text
            record.superseded.formUnion(supersedes)
            notes[NoteKey(citeKey: citeKey, page: page)] = record
        }
    }

    /// Applies every operation of `operations`.
    public mutating func apply<S: Sequence>(contentsOf operations: S) where S.Element == StateOperation {
        for operation in operations { apply(operation) }
    }

    private static func write<Value>(_ register: inout Register<Value>?, _ value: Value, at stamp: HybridTimestamp) {
        if register == nil { register = Register(value: value, timestamp: stamp) } else { register?.write(value, at: stamp) }
    }

    private mutating func place(_ id: NodeID, _ placement: Placement, at stamp: HybridTimestamp, isMove: Bool) {
        var record = nodeRecords[id, default: NodeRecord()]
        if record.placement.map({ stamp > $0.timestamp }) ?? true {
            record.placement = Register(value: placement, timestamp: stamp)
            record.placementIsMove = isMove
        }
        nodeRecords[id] = record
    }

    private static func greatest(_ lhs: HybridTimestamp?, _ rhs: HybridTimestamp?) -> HybridTimestamp? {
        guard let lhs else { return rhs }
        guard let rhs else { return lhs }
        return max(lhs, rhs)
    }

    // MARK: Merging states

    /// Merges the state of `other` into this one (the same as applying all of its operations).
    public mutating func merge(_ other: ReadingStateReplica) {
        for (key, register) in other.positions { Self.write(&positions[key], register.value, at: register.timestamp) }
        for (key, register) in other.readTimes { Self.write(&readTimes[key], register.value, at: register.timestamp) }
        for (key, register) in other.deviceNames { Self.write(&deviceNames[key], register.value, at: register.timestamp) }
        for (id, theirs) in other.nodeRecords {
            var record = nodeRecords[id, default: NodeRecord()]
            record.adds.merge(theirs.adds) { mine, _ in mine }
            record.removedAdds.formUnion(theirs.removedAdds)
            record.removed = record.removed || theirs.removed
            record.lastObservedPlacement = Self.greatest(record.lastObservedPlacement, theirs.lastObservedPlacement)
            if let name = theirs.name { Self.write(&record.name, name.value, at: name.timestamp) }
            if let placement = theirs.placement, record.placement.map({ placement.timestamp > $0.timestamp }) ?? true {
                record.placement = placement
                record.placementIsMove = theirs.placementIsMove
            }
            nodeRecords[id] = record
        }
        for (key, theirs) in other.notes {
            var record = notes[key, default: NoteRecord()]
            record.versions.merge(theirs.versions) { mine, _ in mine }
            record.superseded.formUnion(theirs.superseded)
            notes[key] = record
        }
        for (machine, stamp) in other.latestByMachine where latestByMachine[machine].map({ stamp > $0 }) ?? true {
            latestByMachine[machine] = stamp
        }
    }

    /// This state merged with `other`.
    public func merging(_ other: ReadingStateReplica) -> ReadingStateReplica {
        var copy = self
        copy.merge(other)
        return copy
    }

    // MARK: Reading

    /// The reading position of the document with `fingerprint`, if one was ever set.
    public func position(fingerprint: String) -> ReadingPosition? { positions[fingerprint]?.value }

    /// Whether `operation` is the write that counts for its register (a position's, a read
    /// time's): false when a later write of the same register is known. Always true for the
    /// other operations.
    public func counts(_ operation: StateOperation) -> Bool {
        switch operation.change {
        case let .setPosition(fingerprint, _, _):
            return positions[fingerprint].map { $0.timestamp <= operation.timestamp } ?? true
        case let .setReadTime(fingerprint, citeKey, _):
            return readTimes[ReadKey(fingerprint: fingerprint, citeKey: citeKey)].map { $0.timestamp <= operation.timestamp } ?? true
        default:
            return true
        }
    }

    /// Every document's reading position, by fingerprint.
    public var allPositions: [String: ReadingPosition] { positions.mapValues(\.value) }

    /// When the reference `citeKey` was last read in the document `fingerprint` (milliseconds
    /// since 1970), if ever.
    public func readTime(fingerprint: String, citeKey: String) -> Int64? {
        readTimes[ReadKey(fingerprint: fingerprint, citeKey: citeKey)]?.value
    }

    /// Every read time, by document and reference, with when and where it was set.
    public var allReadTimes: [ReadKey: (readAt: Int64, timestamp: HybridTimestamp)] {
        readTimes.mapValues { ($0.value, $0.timestamp) }
    }

    /// The name each machine gave itself (`setDeviceName`), by machine.
    public var allDeviceNames: [MachineID: String] { deviceNames.mapValues(\.value) }

    /// The nodes that exist, ordered by parent, then position, then id (so the order is the same
    /// everywhere even when two machines chose the same position key).
    public var nodes: [StateNode] {
        nodeRecords.compactMap { id, record in node(id, record) }.sorted {
            ($0.parent?.rawValue ?? "", $0.position, $0.id.rawValue) < ($1.parent?.rawValue ?? "", $1.position, $1.id.rawValue)
        }
    }

    /// The node `id`, if it exists.
    public func node(_ id: NodeID) -> StateNode? { nodeRecords[id].flatMap { node(id, $0) } }

    private func node(_ id: NodeID, _ record: NodeRecord) -> StateNode? {
        guard record.exists, let placement = record.placement, let name = record.name else { return nil }
        guard let latestAdd = record.adds.keys.filter({ !record.removedAdds.contains($0) }).max(),
              let add = record.adds[latestAdd] else { return nil }
        return StateNode(id: id, kind: add.kind, parent: placement.value.parent, position: placement.value.position,
                         name: name.value, target: add.target)
    }

    /// The versions of the note on `page` of the reference `citeKey`, oldest first: one when
    /// there is no conflict, several when machines wrote it concurrently; empty texts (removals)
    /// are left out.
    public func noteVersions(citeKey: String, page: Int) -> [NoteVersion] {
        guard let record = notes[NoteKey(citeKey: citeKey, page: page)] else { return [] }
        return Self.visibleVersions(record)
    }

    /// Every page note that has at least one version, by reference and page.
    public var allNotes: [NotePage: [NoteVersion]] {
        var result: [NotePage: [NoteVersion]] = [:]
        for (key, record) in notes {
            let versions = Self.visibleVersions(record)
            if !versions.isEmpty { result[NotePage(citeKey: key.citeKey, page: key.page)] = versions }
        }
        return result
    }

    private static func visibleVersions(_ record: NoteRecord) -> [NoteVersion] {
        record.versions.filter { !record.superseded.contains($0.key) && !$0.value.isEmpty }
            .map { NoteVersion(text: $0.value, timestamp: $0.key) }
            .sorted { $0.timestamp < $1.timestamp }
    }

    /// The timestamps of the note's current versions, including a removal: what a new write
    /// that replaces them passes as `supersedes`.
    public func noteVersionsToSupersede(citeKey: String, page: Int) -> [HybridTimestamp] {
        guard let record = notes[NoteKey(citeKey: citeKey, page: page)] else { return [] }
        return record.versions.keys.filter { !record.superseded.contains($0) }.sorted()
    }

    /// The adds and the placement of node `id` as this replica sees them: what a remove made
    /// here passes as `observedAdds` and `observedPlacement`.
    public func observed(node id: NodeID) -> (adds: [HybridTimestamp], placement: HybridTimestamp?) {
        guard let record = nodeRecords[id] else { return ([], nil) }
        return (record.adds.keys.sorted(), record.placement?.timestamp)
    }

    /// What the merge decided that the user should hear about, in a fixed order.
    public var reports: [StateMergeReport] {
        var result: [StateMergeReport] = []
        for (id, record) in nodeRecords.sorted(by: { $0.key < $1.key }) where record.removed && !record.exists {
            let name = record.name?.value ?? id.rawValue
            if let placement = record.placement, record.placementIsMove,
               record.lastObservedPlacement.map({ placement.timestamp > $0 }) ?? true {
                result.append(.movedNodeWasDeleted(id: id, name: name, mover: placement.timestamp.machine))
            }
        }
        for (page, versions) in allNotes.sorted(by: { ($0.key.citeKey, $0.key.page) < ($1.key.citeKey, $1.key.page) })
        where versions.count > 1 {
            result.append(.noteHasVersions(citeKey: page.citeKey, page: page.page, count: versions.count))
        }
        return result
    }
}

/// A document's reading position in the merged state.
public struct ReadingPosition: Equatable, Sendable {
    /// The page, 1-based.
    public let page: Int
    /// The scroll within the page (0 = top, 1 = bottom).
    public let scroll: Double
    /// When and on which machine it was set.
    public let timestamp: HybridTimestamp
}

/// A node of the bookmark tree in the merged state.
public struct StateNode: Equatable, Sendable {
    /// The node's id.
    public let id: NodeID
    /// What the node is.
    public let kind: NodeKind
    /// Its parent (nil: the root). The parent may not exist (deleted on another machine).
    public let parent: NodeID?
    /// Its position key among its siblings.
    public let position: String
    /// Its name.
    public let name: String
    /// What it points to (a cite key, a link), if anything.
    public let target: String?
}

/// One version of a page note.
public struct NoteVersion: Equatable, Sendable {
    /// The note's text.
    public let text: String
    /// When and on which machine it was written.
    public let timestamp: HybridTimestamp
}

/// A page of a reference's document, the key of a page note.
public struct NotePage: Hashable, Sendable {
    /// The reference's cite key, in lower case (page notes belong to the reference, whichever
    /// copy of its PDF is read).
    public let citeKey: String
    /// The page, 1-based.
    public let page: Int

    /// The page `page` of the reference `citeKey`.
    public init(citeKey: String, page: Int) {
        self.citeKey = citeKey
        self.page = page
    }
}

/// The key of a read time: a reference read in one document (by content fingerprint).
public struct ReadKey: Hashable, Sendable {
    /// The document's content fingerprint.
    public let fingerprint: String
    /// The reference's cite key.
    public let citeKey: String

    /// The key of `citeKey` read in the document `fingerprint`.
    public init(fingerprint: String, citeKey: String) {
        self.fingerprint = fingerprint
        self.citeKey = citeKey
    }
}
