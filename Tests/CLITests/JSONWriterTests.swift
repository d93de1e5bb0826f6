import BibModel
import Foundation
import Testing
@testable import BibreadCLI

/// The JSON writer's shortcuts give exactly what the plain path would.
@Suite("JSON writer")
struct JSONWriterTests {
    static let people: [PersonName] = [
        PersonName(last: "Knuth"),
        PersonName(first: "Donald E.", last: "Knuth"),
        PersonName(first: "Pieter", von: "van der", last: "Berg", jr: "Jr"),
        PersonName(von: "de", last: "Gaulle"),
        PersonName(first: "Kurt", von: "von", last: ""),
        PersonName(last: "King", jr: "Jr."),
        PersonName(first: "Only", last: ""),
        PersonName(last: "", jr: "III"),
        PersonName(last: ""),
        PersonName(first: "Sa\"id \\ back", last: "Tab\there"),
        PersonName(first: "Åsa", von: "de la", last: "Peña\u{1}"),
    ]

    /// `fullName(of:)` writes the same JSON string as `string(person.fullName)`.
    @Test(arguments: people)
    func fullNameIsWrittenAsThePlainPathWritesIt(person: PersonName) throws {
        var direct = JSONWriter()
        defer { direct.deallocate() }
        direct.beginArray()
        direct.fullName(of: person)
        direct.fullName(of: person)
        direct.endArray()
        var plain = JSONWriter()
        defer { plain.deallocate() }
        plain.beginArray()
        plain.string(person.fullName)
        plain.string(person.fullName)
        plain.endArray()
        #expect(String(decoding: direct.bytes, as: UTF8.self) == String(decoding: plain.bytes, as: UTF8.self))
        let decoded = try JSONSerialization.jsonObject(with: Data(direct.bytes)) as? [String]
        #expect(decoded == [person.fullName, person.fullName])
    }
}
