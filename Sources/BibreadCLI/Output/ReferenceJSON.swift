import BibModel
import Dispatch
import Foundation
import SyncEngine

/// The stable JSON form of references, documented in the README.
enum ReferenceJSON {
    /// Writes one reference as a JSON object.
    static func write(_ entry: Entry, to json: inout JSONWriter, extra: ((Entry, inout JSONWriter) -> Void)? = nil) {
        var keys = SourceLookups()
        write(entry, to: &json, keys: &keys, extra: extra)
    }

    /// Writes one reference as a JSON object, its field names encoded once in `keys`.
    static func write(_ entry: Entry, to json: inout JSONWriter, keys: inout SourceLookups,
                      extra: ((Entry, inout JSONWriter) -> Void)? = nil) {
        json.beginObject()
        json.literalKey("key"); json.string(entry.key)
        json.literalKey("address"); json.string(entry.address)
        json.literalKey("type"); json.string(entry.type)
        entry.withNameSpans(.author) { authors in
            entry.withNameSpans(.editor) { editors in
                json.literalKey("authors"); json.names(authors)
                json.literalKey("editors"); json.names(editors)
                json.literalKey("creators"); json.nameDisplay(authors.isEmpty ? editors : authors)
            }
        }
        // The title is decoded and escaped once, and its JSON copied for the title field.
        json.literalKey("title")
        let titleStart = json.position
        if let titleField = entry.field(.title) {
            entry.withRawBytes(of: titleField) { json.decodedLaTeX($0) }
        } else {
            json.string("")
        }
        let titleValue = titleStart..<json.position
        json.literalKey("year"); json.optionalString(entry.year)
        json.literalKey("citation"); json.citation(of: entry)
        json.literalKey("fields")
        json.beginObject()
        var titleWritten = false
        entry.forEachRawField { field, bytes in
            keys.writeKey(of: field, in: entry, to: &json)
            if field.isVerbatim {
                json.decodedVerbatim(bytes)
            } else if field.kind.known == .title && !titleWritten {
                // The entry's title is this field's value, written above already.
                json.repeatValue(titleValue)
                titleWritten = true
            } else {
                // Plain values are copied straight from the file; the others decoded into scratch memory.
                json.decodedLaTeX(bytes)
            }
        }
        json.endObject()
        let links = entry.links
        json.literalKey("files")
        json.beginArray()
        for file in links.files {
            json.beginObject()
            json.literalKey("path"); json.string(file.path)
            json.literalKey("exists"); json.bool(LinkedFileLocator.shared.location(of: file).isHere)
            json.endObject()
        }
        json.endArray()
        json.literalKey("urls")
        json.beginArray()
        for url in links.urls { json.string(url) }
        json.endArray()
        json.literalKey("source")
        json.beginObject()
        json.literalKey("path"); json.string(entry.source.path)
        json.literalKey("line"); json.integer(keys.line(of: entry))
        json.endObject()
        extra?(entry, &json)
        json.endObject()
    }

    /// Writes many references as a JSON array, one per line, using every core.
    static func writeArray(_ entries: [Entry], extra: (@Sendable (Entry, inout JSONWriter) -> Void)? = nil,
                           output: (UnsafeBufferPointer<UInt8>) -> Void) {
        func emit(_ literal: StaticString) {
            output(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
        }
        emit("[\n")
        var wroteAny = false
        ParallelRendering.render(entries, render: { chunk in
            // Room for a chunk of large references (about 1 kB each in big libraries), so that
            // the buffer rarely grows (a copy) while it is written.
            var json = JSONWriter(capacity: 512 * 1024)
            var keys = SourceLookups()
            for index in chunk.indices {
                if index > chunk.startIndex { json.nextTopLevelItem() }
                write(chunk[index], to: &json, keys: &keys, extra: extra)
            }
            return json.finish()
        }, output: { bytes in
            if wroteAny { emit(",\n") }
            output(bytes)
            wroteAny = true
        })
        emit("\n]\n")
    }
}

/// What writing many references of one source file looks up again and again: the JSON keys
/// (`"name":`) of its field names, encoded once per name rather than once per field, and its
/// line numbers.
struct SourceLookups {
    private var source: ObjectIdentifier?
    /// The keys encoded so far, one after another.
    private var encodedKeys: [UInt8] = []
    /// Where each name's key lies in `encodedKeys`, by name number; a count of 0 when it is
    /// not encoded yet (a key is never empty: it has at least `"":`).
    private var keyRanges: [(start: Int, count: Int)] = []
    private var lines: LineNumbers?
    /// Where the last entry's line was found (see `LineNumbers.line(of:hint:)`).
    private var lineHint = 0

    private mutating func use(_ entry: Entry) {
        let identity = ObjectIdentifier(entry.source)
        guard identity != source else { return }
        source = identity
        encodedKeys = []
        keyRanges = []
        lines = nil
        lineHint = 0
    }

    /// The line where `entry` starts.
    mutating func line(of entry: Entry) -> Int {
        use(entry)
        if let lines { return lines.line(of: entry, hint: &lineHint) }
        let numbers = entry.source.lineNumbers
        lines = numbers
        return numbers.line(of: entry, hint: &lineHint)
    }

    /// Writes the key of `field`, a field of `entry`, to `json`.
    mutating func writeKey(of field: Field, in entry: Entry, to json: inout JSONWriter) {
        use(entry)
        let id = field.nameNumber
        if id >= keyRanges.count { keyRanges.append(contentsOf: repeatElement((start: 0, count: 0), count: id - keyRanges.count + 1)) }
        if keyRanges[id].count == 0 {
            let key = JSONWriter.encodedKey(entry.name(of: field))
            keyRanges[id] = (encodedKeys.count, key.count)
            encodedKeys += key
        }
        let (start, count) = keyRanges[id]
        encodedKeys.withUnsafeBufferPointer { all in
            json.encodedKey(UnsafeBufferPointer(rebasing: all[start..<(start + count)]))
        }
    }
}
