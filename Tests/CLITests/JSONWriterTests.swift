import BibModel
import Foundation
import Testing
@testable import BibreadCLI

/// The JSON writer's shortcuts give exactly what the plain path would.
@Suite("JSON writer")
struct JSONWriterTests {

    /// Raw name lists whose names need JSON escapes, decode to nothing, or end with others.
    static let nameLists: [String] = [
        "", "Knuth", "Donald E. Knuth and Leslie Lamport and others", #"Sa"id \\ back and Tab\#there"#,
        "{}, {}, {} and King, Jr, Martin Luther", #"G{\"o}del, Kurt and Erd\H{o}s, Paul and de la Fontaine, Jean and X"#,
        "Peña\u{1}, Åsa", "others",
    ]

    /// `names(_:)` and `nameDisplay(_:)` write the JSON strings of `NameList`'s full names and
    /// short form.
    @Test(arguments: nameLists)
    func namesAreWrittenAsThePlainPathWritesThem(raw: String) throws {
        let list = NameList(raw: raw)
        var direct = JSONWriter()
        defer { direct.deallocate() }
        var copy = raw
        copy.withUTF8 { bytes in
            let spans = NameSpanList(rawBytes: bytes)
            direct.beginArray()
            direct.names(spans)
            direct.nameDisplay(spans)
            direct.endArray()
        }
        var plain = JSONWriter()
        defer { plain.deallocate() }
        plain.beginArray()
        plain.beginArray()
        for name in list.names { plain.string(name.fullName) }
        if list.hasOthers { plain.string("others") }
        plain.endArray()
        plain.string(list.display)
        plain.endArray()
        #expect(String(decoding: direct.bytes, as: UTF8.self) == String(decoding: plain.bytes, as: UTF8.self))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(direct.bytes)) as? [Any])
        #expect(decoded.first as? [String] == list.names.map(\.fullName) + (list.hasOthers ? ["others"] : []))
        #expect(decoded.last as? String == list.display)
    }

    /// A value written again is the same JSON, also when the buffer has to grow to hold it.
    @Test func aValueWrittenAgainIsTheSameJSON() throws {
        var json = JSONWriter(capacity: 16)
        defer { json.deallocate() }
        json.beginObject()
        json.literalKey("first")
        let start = json.position
        let text = "Déjà \"vu\" \\ " + String(repeating: "long ", count: 10)
        json.string(text)
        let written = start..<json.position
        json.literalKey("again")
        json.repeatValue(written)
        json.literalKey("list")
        json.beginArray()
        json.repeatValue(written)
        json.repeatValue(written)
        json.endArray()
        json.endObject()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String: Any])
        #expect(object["first"] as? String == text)
        #expect(object["again"] as? String == text)
        #expect(object["list"] as? [String] == [text, text])
    }

    /// Strings of every length up to 20 with a byte that needs an escape at every position
    /// (a quote, a backslash, a line feed, a control byte) read back as the same text, and are
    /// escaped as JSON says: the writer checks eight bytes at a time, the last few with a word
    /// that overlaps the one before, so a second escape in the overlap must not be written twice.
    @Test(arguments: ["\"", "\\", "\n", "\u{1}", "\u{1F}"])
    func everyPositionOfEveryShortLengthIsEscaped(special: String) throws {
        for length in 0...20 {
            for position in 0...length {
                let letters = String(repeating: "a", count: length)
                let text = position == length ? letters
                    : String(letters.prefix(position)) + special + String(letters.dropFirst(position + 1))
                var json = JSONWriter()
                defer { json.deallocate() }
                json.beginArray()
                json.string(text)
                json.string("é" + text + "ü")
                json.string(text + special + "b")
                json.endArray()
                let written = String(decoding: json.bytes, as: UTF8.self)
                let decoded = try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String]
                #expect(decoded == [text, "é" + text + "ü", text + special + "b"], "\(written)")
                #expect(!written.utf8.contains { $0 < 0x20 }, "a control byte is written as it is: \(written)")
            }
        }
    }

    /// LaTeX values are written decoded, plain ones copied as they are: each reads back as
    /// `LaTeX.decode` gives it, quotes, backslashes and control bytes escaped.
    @Test func decodedValuesReadBackAsDecodeGivesThem() throws {
        let values = ["", "plain", "Plain title: with, punctuation", "a \"quoted\" word", "tab\there",
                      "line\nbreak", "ctl\u{1}byte", "G{\\\"o}del", "back\\slash", "{\\em x} \"y\"", "dé\u{1F}jà"]
        var json = JSONWriter(capacity: 8)
        defer { json.deallocate() }
        json.beginArray()
        for value in values {
            Array(value.utf8).withUnsafeBufferPointer { json.decodedLaTeX($0) }
        }
        json.endArray()
        let written = String(decoding: json.bytes, as: UTF8.self)
        let decoded = try JSONSerialization.jsonObject(with: Data(json.bytes)) as? [String]
        #expect(decoded == values.map { LaTeX.decode($0) }, "\(written)")
        #expect(!written.utf8.contains { $0 < 0x20 }, "a control byte is written as it is: \(written)")
    }

    /// Integers are written digit by digit into the buffer: every sign and length reads back.
    @Test func integersOfEverySignAndLengthReadBack() throws {
        let values = [0, 7, 10, -1, -10, 99, 100, 1_234_567, Int(Int32.max), Int.max, Int.min]
        var json = JSONWriter()
        defer { json.deallocate() }
        json.beginArray()
        for value in values { json.integer(value) }
        json.endArray()
        let written = String(decoding: json.bytes, as: UTF8.self)
        #expect(written == "[" + values.map(String.init).joined(separator: ",") + "]")
    }
}
