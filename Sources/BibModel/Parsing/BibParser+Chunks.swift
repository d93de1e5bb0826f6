import Dispatch
import Foundation

/// Reading a large file in chunks on several threads, with the result of one pass in order.
///
/// Chunks start at entries that start a line (`@type{`), the place where the parser resumes
/// after an error, so that each chunk begins where one pass would begin a block. Each later
/// chunk starts with no macros and defers what depends on the ones before it (`DeferredMacros`);
/// joining puts the expansions and their warnings in place. A chunk whose start one pass would
/// not reach as a block start (the chunk before ran past it, as a `@comment` may), or that
/// defines a macro from unknown ones, is read again in order: the result never differs.
extension BibParser {
    /// No chunk is smaller than this: below it a thread costs more than it saves.
    static let minimumChunkSize = 1 << 20

    /// Where the chunks after the first start: none for a small file or a single core.
    static func chunkStarts(in source: SourceFile) -> [Int] {
        let size = source.bytes.count
        let count = min(ProcessInfo.processInfo.activeProcessorCount, size / minimumChunkSize, 16)
        guard count > 1 else { return [] }
        return source.bytes.withUnsafeBufferPointer { text in
            var starts: [Int] = []
            for chunk in 1..<count {
                let target = max(chunk * size / count, (starts.last ?? 0) + 1)
                if let start = entryStart(in: text, from: target) { starts.append(start) }
            }
            return starts
        }
    }

    /// The first `@type{` or `@type(` at or after `offset` that starts a line.
    static func entryStart(in text: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        guard let base = text.baseAddress, offset > 0 else { return nil }
        var search = offset - 1
        while search < text.count, let found = memchr(base + search, 0x0A, text.count - search) {
            let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if looksLikeEntryStart(text, after: newline) {
                var at = newline + 1
                while text[at] != UInt8(ascii: "@") { at += 1 }
                return at
            }
            search = newline + 1
        }
        return nil
    }

    /// Parses the chunk up to `starts[0]` here and the others at the same time, then joins them.
    mutating func runInChunks(startingAt starts: [Int]) {
        let size = source.bytes.count
        let bounds = [position] + starts + [size]
        end = bounds[1]
        let jobs = [ChunkJob(self)] + (1..<bounds.count - 1).map {
            ChunkJob(BibParser(chunkOf: source, from: bounds[$0], to: bounds[$0 + 1]))
        }
        DispatchQueue.concurrentPerform(iterations: jobs.count) { jobs[$0].run() }
        guard let first = jobs[0].take() else { return }
        self = first
        source.bytes.withUnsafeBufferPointer { text in
            for index in 1..<jobs.count {
                guard var chunk = jobs[index].take() else { continue }
                if position == bounds[index], absorb(&chunk) { continue }
                // One pass would not start a block here, or the chunk could not be joined:
                // read it again, in order, from wherever this parser stands.
                end = bounds[index + 1]
                run(text)
            }
        }
        end = size
    }

    /// Appends a later chunk read from where this parser stands, resolving what it deferred;
    /// false (and nothing changed) when it cannot be joined.
    private mutating func absorb(_ chunk: inout BibParser) -> Bool {
        guard let deferred = chunk.deferred, !deferred.abandoned else { return false }
        let checks = deferred.checks
        let known = checks.map { $0.isRedefinition ? nil : macros.values[$0.lower] }
        // The expansions of the whole chunk must fit in what this file has left.
        let limit = BibParser.expansionLimit(size: source.bytes.count)
        let used = (limit - chunk.expansionBudget) + known.reduce(0) { $0 + ($1?.utf8.count ?? 0) }
        guard used <= expansionBudget else { return false }
        expansionBudget -= used

        let chunkEntries = chunk.entries
        renumberFieldNames(of: chunkEntries, from: chunk.fieldNames.store)
        let expansions = zip(checks, known).map { check, value in value ?? check.spelled }
        for pending in deferred.texts {
            let placeholder = chunkEntries[pending.entry].texts[pending.text]
            chunkEntries[pending.entry].texts[pending.text] = pending.resolve(placeholder, expansions: expansions)
        }
        entries.append(movingFrom: chunkEntries)
        appendProblems(chunk.problems, resolving: checks, known: known)
        for (name, value) in chunk.macros.values { macros.values[name] = value }
        forgetCachedMacros()
        comments += chunk.comments
        preambles += chunk.preambles
        stringNames += chunk.stringNames
        documentInfo.merge(chunk.documentInfo) { $1 }
        position = chunk.position
        return true
    }

    /// Gives the fields of a chunk's entries their numbers in the file's own name store (the
    /// same numbers one pass gives: names new to the chunk are added in the order it met them).
    private func renumberFieldNames(of chunkEntries: EntryBuffer, from store: FieldNameStore) {
        let numbers = store.spellings.indices.map {
            source.fieldNames.intern(spelled: store.spellings[$0], lowercase: store.lowercase[$0])
        }
        if numbers.indices.allSatisfy({ numbers[$0] == UInt32($0) }) { return }
        numbers.withUnsafeBufferPointer { numbers in
            chunkEntries.withUnsafeMutableBufferPointer { entries in
                for index in entries.indices {
                    entries[index].fields.withUnsafeMutableBufferPointer { fields in
                        for fieldIndex in fields.indices {
                            fields[fieldIndex] = fields[fieldIndex].renamed(numbers[Int(fields[fieldIndex].nameID)])
                        }
                    }
                }
            }
        }
    }

    /// Appends a chunk's problems with the warnings its deferred checks turn out to need, each
    /// where one pass would have reported it.
    private mutating func appendProblems(_ chunkProblems: [Diagnostic], resolving checks: [DeferredMacros.Check], known: [String?]) {
        var warnings: [(index: Int, diagnostic: Diagnostic)] = []
        for (check, value) in zip(checks, known) {
            if check.isRedefinition {
                if macros.values[check.lower] != nil {
                    warnings.append((check.problemIndex, Diagnostic(.warning, source: source, offset: check.offset,
                                                                    message: "@string '\(check.spelled)' redefined")))
                }
            } else if value == nil {
                warnings.append((check.problemIndex, Diagnostic(.warning, source: source, offset: check.offset,
                                                                message: "undefined @string '\(check.spelled)', kept as text")))
            }
        }
        guard !warnings.isEmpty else {
            problems += chunkProblems
            return
        }
        problems.reserveCapacity(problems.count + chunkProblems.count + warnings.count)
        var next = 0
        for (index, problem) in chunkProblems.enumerated() {
            while next < warnings.count && warnings[next].index <= index {
                problems.append(warnings[next].diagnostic)
                next += 1
            }
            problems.append(problem)
        }
        for warning in warnings[next...] { problems.append(warning.diagnostic) }
    }

    /// Stops reading this chunk: it will be read again in order.
    mutating func abandonChunk(_ text: UnsafeBufferPointer<UInt8>) {
        deferred?.abandon()
        position = text.count
    }
}

/// One chunk's parser, run on its own thread and then taken back.
private final class ChunkJob: @unchecked Sendable {
    private var parser: BibParser?

    init(_ parser: BibParser) { self.parser = parser }

    func run() {
        guard var running = parser else { return }
        parser = nil
        let source = running.source
        source.bytes.withUnsafeBufferPointer { running.run($0) }
        parser = running
    }

    func take() -> BibParser? {
        defer { parser = nil }
        return parser
    }
}

extension Field {
    /// The same field with its name numbered `nameID`.
    func renamed(_ nameID: UInt32) -> Field {
        Field(nameID: nameID, kind: kind, storage: storage, first: first, second: second, nameOffset: nameOffset)
    }
}
