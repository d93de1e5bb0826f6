import BibModel
import Dispatch
import Foundation

/// The stable JSON form of references, documented in the README.
enum ReferenceJSON {
    /// Writes one reference as a JSON object.
    static func write(_ entry: Entry, to json: inout JSONWriter, extra: ((Entry, inout JSONWriter) -> Void)? = nil) {
        json.beginObject()
        json.literalKey("key"); json.string(entry.key)
        json.literalKey("address"); json.string(entry.address)
        json.literalKey("type"); json.string(entry.type)
        let authors = entry.authors
        let editors = entry.editors
        json.literalKey("authors"); writeNames(authors, to: &json)
        json.literalKey("editors"); writeNames(editors, to: &json)
        json.literalKey("creators"); json.string((authors.isEmpty ? editors : authors).display)
        json.literalKey("title"); json.string(entry.title)
        json.literalKey("year"); json.optionalString(entry.year)
        json.literalKey("citation"); json.string(entry.citation)
        json.literalKey("fields")
        json.beginObject()
        entry.forEachRawField { field, bytes in
            json.key(entry.name(of: field))
            if field.isVerbatim {
                json.string(entry.decodedText(of: field))
            } else if LaTeX.isPlain(bytes) {
                // Most values need no decoding: copy their bytes straight from the file.
                json.string(bytes)
            } else {
                json.string(LaTeX.decode(bytes))
            }
        }
        json.endObject()
        let links = entry.links
        json.literalKey("files")
        json.beginArray()
        for file in links.files {
            json.beginObject()
            json.literalKey("path"); json.string(file.path)
            json.literalKey("exists"); json.bool(file.exists)
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
        json.literalKey("line"); json.integer(entry.line)
        json.endObject()
        extra?(entry, &json)
        json.endObject()
    }

    private static func writeNames(_ list: NameList, to json: inout JSONWriter) {
        json.beginArray()
        for name in list.names { json.string(name.fullName) }
        if list.hasOthers { json.string("others") }
        json.endArray()
    }

    /// Writes many references as a JSON array, one per line, using every core.
    static func writeArray(_ entries: [Entry], extra: (@Sendable (Entry, inout JSONWriter) -> Void)? = nil, output: ([UInt8]) -> Void) {
        output(Array("[\n".utf8))
        var wroteAny = false
        ParallelRendering.render(entries, render: { chunk in
            var json = JSONWriter(capacity: 256 * 1024)
            defer { json.deallocate() }
            for index in chunk.indices {
                if index > chunk.startIndex { json.nextTopLevelItem() }
                write(chunk[index], to: &json, extra: extra)
            }
            return json.bytes
        }, output: { bytes in
            if wroteAny { output(Array(",\n".utf8)) }
            output(bytes)
            wroteAny = true
        })
        output(Array("\n]\n".utf8))
    }
}
