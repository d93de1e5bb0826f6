import BibModel
import Dispatch
import Foundation

/// The stable JSON form of references, documented in the README.
enum ReferenceJSON {
    /// Writes one reference as a JSON object.
    static func write(_ entry: Entry, to json: inout JSONWriter) {
        json.beginObject()
        json.key("key"); json.string(entry.key)
        json.key("address"); json.string(entry.address)
        json.key("type"); json.string(entry.type)
        let authors = entry.authors
        let editors = entry.editors
        json.key("authors"); writeNames(authors, to: &json)
        json.key("editors"); writeNames(editors, to: &json)
        json.key("creators"); json.string((authors.isEmpty ? editors : authors).display)
        json.key("title"); json.string(entry.title)
        json.key("year"); json.optionalString(entry.year)
        json.key("citation"); json.string(entry.citation)
        json.key("fields")
        json.beginObject()
        for field in entry.fields {
            json.key(entry.name(of: field))
            if field.isVerbatim {
                json.string(entry.decodedText(of: field))
                continue
            }
            // Most values need no decoding: copy their bytes straight from the file.
            entry.withRawBytes(of: field) { bytes in
                if LaTeX.isPlain(bytes) {
                    json.string(bytes)
                } else {
                    json.string(LaTeX.decode(bytes))
                }
            }
        }
        json.endObject()
        let links = entry.links
        json.key("files")
        json.beginArray()
        for file in links.files {
            json.beginObject()
            json.key("path"); json.string(file.path)
            json.key("exists"); json.bool(file.exists)
            json.endObject()
        }
        json.endArray()
        json.key("urls")
        json.beginArray()
        for url in links.urls { json.string(url) }
        json.endArray()
        json.key("source")
        json.beginObject()
        json.key("path"); json.string(entry.source.path)
        json.key("line"); json.integer(entry.line)
        json.endObject()
        json.endObject()
    }

    private static func writeNames(_ list: NameList, to json: inout JSONWriter) {
        json.beginArray()
        for name in list.names { json.string(name.fullName) }
        if list.hasOthers { json.string("others") }
        json.endArray()
    }

    /// Writes many references as a JSON array, one per line, using every core.
    static func writeArray(_ entries: [Entry], output: ([UInt8]) -> Void) {
        output(Array("[\n".utf8))
        var wroteAny = false
        ParallelRendering.render(entries, render: { chunk in
            var json = JSONWriter(capacity: 256 * 1024)
            defer { json.deallocate() }
            for index in chunk.indices {
                if index > chunk.startIndex { json.nextTopLevelItem() }
                write(chunk[index], to: &json)
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
