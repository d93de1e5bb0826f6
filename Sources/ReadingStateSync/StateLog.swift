import Dispatch
import Foundation
import Synchronization

/// The format of a machine's operation log: one JSON object per line (`StateOperation`'s
/// Codable form), each line ending in a newline.
///
/// Reading is hostile-input safe: a log larger than `maximumBytes`, a line longer than
/// `maximumLineBytes`, a line cut short, anything that is not an operation, and any value out of
/// range (a page below 1, a huge or control-character-laden string, a time past the year 3000),
/// and two operations with the same timestamp, is refused with `StateLogError` naming the line, and nothing of the log is used.
public enum StateLog {
    /// The largest log read: 64 MiB.
    public static let maximumBytes = 64 << 20
    /// The longest line: 64 KiB.
    public static let maximumLineBytes = 64 << 10

    /// `operations` as a log.
    public static func encode<S: Sequence>(_ operations: S) -> Data where S.Element == StateOperation {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = Data()
        for operation in operations {
            // Encoding these plain values cannot fail; a failure would drop nothing silently.
            guard let line = try? encoder.encode(operation) else { continue }
            data.append(line)
            data.append(UInt8(ascii: "\n"))
        }
        return data
    }

    /// The operations of the log `data`, or `StateLogError` for the first line that is wrong.
    public static func decode(_ data: Data) throws(StateLogError) -> [StateOperation] {
        try decodeLines(data).map(\.operation)
    }

    /// The operations of the log `data` with the text of their lines (what a store keeps
    /// without encoding them again), or `StateLogError` for the first line that is wrong.
    public static func decodeLines(_ data: Data) throws(StateLogError) -> [StateLogLine] {
        if data.count > maximumBytes {
            throw StateLogError(line: nil, problem: "the log is \(data.count) bytes, more than the \(maximumBytes) bytes allowed")
        }
        if data.isEmpty { return [] }
        // The lines, found first; a last line without its end is the log cut short.
        var ranges: [Range<Data.Index>] = []
        var start = data.startIndex
        while start < data.endIndex {
            guard let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                // A wrong line before it is the first problem: the lines before are read first.
                ranges.append(start..<data.endIndex)
                break
            }
            ranges.append(start..<end)
            start = data.index(after: end)
        }
        // Decoded in pieces on every core (a large log is most of a merge's time); the first
        // wrong line of the log is the one reported, as if read in order.
        let pieces = data.count < 1 << 20 ? 1 : max(1, min(8, ProcessInfo.processInfo.activeProcessorCount))
        let size = (ranges.count + pieces - 1) / pieces
        let results = Mutex<[Result<[StateLogLine], StateLogError>]>(Array(repeating: .success([]), count: pieces))
        let truncatedLine = data.last == UInt8(ascii: "\n") ? nil : ranges.count
        let lines = ranges
        DispatchQueue.concurrentPerform(iterations: pieces) { piece in
            let lower = min(lines.count, piece * size)
            let upper = min(lines.count, lower + size)
            let result = Result { () throws(StateLogError) in
                try decode(data, ranges: lines[lower..<upper], firstLine: lower + 1, truncatedLine: truncatedLine)
            }
            results.withLock { $0[piece] = result }
        }
        var operations: [StateLogLine] = []
        operations.reserveCapacity(ranges.count)
        for result in results.withLock({ $0 }) { operations += try result.get() }
        // Two operations with one timestamp would make a last-writer-wins choice depend on
        // the order they arrive in: each operation has a timestamp of its own.
        var lineOfTimestamp: [HybridTimestamp: Int] = [:]
        lineOfTimestamp.reserveCapacity(operations.count)
        for (index, line) in operations.enumerated() {
            if let earlier = lineOfTimestamp.updateValue(index + 1, forKey: line.operation.timestamp) {
                throw StateLogError(line: index + 1, problem: "the timestamp is the same as line \(earlier)'s")
            }
        }
        return operations
    }

    /// The operations of the lines `ranges` of `data`, the first of them line `firstLine`.
    private static func decode(_ data: Data, ranges: ArraySlice<Range<Data.Index>>, firstLine: Int,
                               truncatedLine: Int?) throws(StateLogError) -> [StateLogLine] {
        let decoder = JSONDecoder()
        var operations: [StateLogLine] = []
        operations.reserveCapacity(ranges.count)
        for (offset, range) in ranges.enumerated() {
            let lineNumber = firstLine + offset
            if lineNumber == truncatedLine {
                throw StateLogError(line: lineNumber, problem: "the line is cut short (no end of line): the log is truncated")
            }
            let line = data[range]
            if line.count > maximumLineBytes {
                throw StateLogError(line: lineNumber, problem: "the line is \(line.count) bytes, more than the \(maximumLineBytes) allowed")
            }
            if line.isEmpty { throw StateLogError(line: lineNumber, problem: "the line is empty") }
            let operation: StateOperation
            do {
                operation = try decoder.decode(StateOperation.self, from: line)
            } catch let error as DecodingError {
                throw StateLogError(line: lineNumber, problem: Self.describe(error))
            } catch {
                throw StateLogError(line: lineNumber, problem: "not a state operation")
            }
            if let problem = operation.problem {
                throw StateLogError(line: lineNumber, problem: problem)
            }
            operations.append(StateLogLine(operation: operation, text: String(decoding: line, as: UTF8.self)))
        }
        return operations
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [CodingKey]) -> String {
            let names = codingPath.filter { $0.intValue == nil }.map(\.stringValue)
            return names.isEmpty ? "the operation" : "'\(names.joined(separator: "."))'"
        }
        switch error {
        case let .keyNotFound(key, context):
            return "\(path(context.codingPath + [key])) is missing"
        case let .typeMismatch(_, context) where context.codingPath.last?.stringValue == "change":
            return "'change' is not an operation this version knows"
        case let .typeMismatch(_, context), let .valueNotFound(_, context):
            return "\(path(context.codingPath)) has the wrong type or is out of range"
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty { return "not valid JSON (or a number out of range)" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "not a state operation"
        }
    }
}

/// One line of a log: its operation and its text (without the end of line).
public struct StateLogLine: Sendable, Equatable {
    /// The operation the line holds.
    public let operation: StateOperation
    /// The line as it was read.
    public let text: String

    /// The line `text` that holds `operation`.
    public init(operation: StateOperation, text: String) {
        self.operation = operation
        self.text = text
    }
}

/// A log refused by `StateLog.decode(_:)`: the line (1-based, nil for the whole log) and what is
/// wrong with it.
public struct StateLogError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The line that is wrong, 1-based; nil when the whole log is refused.
    public let line: Int?
    /// What is wrong, in words.
    public let problem: String

    /// The error for `line` (nil: the whole log) with `problem`.
    public init(line: Int?, problem: String) {
        self.line = line
        self.problem = problem
    }

    public var description: String { line.map { "line \($0): \(problem)" } ?? problem }
}

extension StateOperation {
    /// The most characters of a fingerprint, a cite key or a position key.
    static let maximumKeyLength = 256
    /// The most characters of a node's name.
    public static let maximumNameLength = 1_000
    /// The most characters of a node's target (a notemark's text is its target).
    public static let maximumTargetLength = 16_000
    /// The most characters of a machine's name.
    static let maximumDeviceNameLength = 64
    /// The most characters of a page note.
    public static let maximumNoteLength = 16_000
    /// The most timestamps a remove or a note may list as seen.
    static let maximumObserved = 1_000
    /// The highest page number.
    static let maximumPage = 1_000_000

    /// What is wrong with this operation's values, or nil when they are all in range (what a
    /// log with it is refused for).
    public var problem: String? {
        switch change {
        case let .setPosition(fingerprint, page, scroll):
            return Self.key(fingerprint, "fingerprint") ?? Self.page(page)
                ?? (scroll.isFinite && scroll >= 0 && scroll <= 1 ? nil : "the scroll \(scroll) is not between 0 and 1")
        case let .setReadTime(fingerprint, citeKey, readAt):
            return Self.key(fingerprint, "fingerprint") ?? Self.key(citeKey, "cite key")
                ?? (readAt >= 0 && readAt <= HybridTimestamp.latestWallMilliseconds ? nil : "the read time \(readAt) is not between 1970 and 3000")
        case let .addNode(_, _, _, position, name, target):
            // A bookmark may have no name of its own (it shows its reference's title).
            return Self.key(position, "position") ?? Self.text(name, "name", Self.maximumNameLength, allowsEmpty: true)
                ?? target.flatMap { Self.text($0, "target", Self.maximumTargetLength, allowsEmpty: false) }
        case let .setDeviceName(name):
            return Self.text(name, "device name", Self.maximumDeviceNameLength, allowsEmpty: false)
        case let .renameNode(_, name):
            return Self.text(name, "name", Self.maximumNameLength, allowsEmpty: true)
        case let .moveNode(_, _, position):
            return Self.key(position, "position")
        case let .removeNode(_, observedAdds, _):
            return observedAdds.count > Self.maximumObserved ? "the remove lists \(observedAdds.count) adds, more than \(Self.maximumObserved)" : nil
        case let .setNote(citeKey, page, text, supersedes):
            return Self.key(citeKey, "cite key") ?? Self.page(page)
                ?? Self.text(text, "note", Self.maximumNoteLength, allowsEmpty: true, allowsLineBreaks: true)
                ?? (supersedes.count > Self.maximumObserved ? "the note lists \(supersedes.count) versions, more than \(Self.maximumObserved)" : nil)
        }
    }

    /// Whether a name or a note may not hold `scalar`: C0, DEL, C1, and the bidirectional
    /// overrides and isolates that reorder what a terminal shows (a note may hold `\n` and `\t`).
    public static func refuses(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    private static func page(_ page: Int) -> String? {
        page >= 1 && page <= maximumPage ? nil : "the page \(page) is not between 1 and \(maximumPage)"
    }

    private static func key(_ key: String, _ what: String) -> String? {
        text(key, what, maximumKeyLength, allowsEmpty: false)
    }

    private static func text(_ text: String, _ what: String, _ limit: Int, allowsEmpty: Bool, allowsLineBreaks: Bool = false) -> String? {
        if text.isEmpty && !allowsEmpty { return "the \(what) is empty" }
        if text.count > limit { return "the \(what) is \(text.count) characters, more than \(limit)" }
        let control = text.unicodeScalars.contains { scalar in
            if allowsLineBreaks && (scalar == "\n" || scalar == "\t") { return false }
            return refuses(scalar)
        }
        return control ? "the \(what) holds a control character" : nil
    }
}

extension ReadingStateReplica {
    /// Applies every operation of the log `data`; a log `StateLog.decode(_:)` refuses leaves
    /// this state untouched.
    public mutating func apply(log data: Data) throws(StateLogError) {
        let operations = try StateLog.decode(data)
        apply(contentsOf: operations)
    }
}
