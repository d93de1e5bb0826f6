@testable import BibModel
import Testing

/// The parser's entry buffer moves entries without losing or freeing any twice.
@Suite("entry buffer")
struct EntryBufferTests {
    static func entry(_ key: String, in source: SourceFile) -> Entry {
        // A key longer than a small string, so that it lives on the heap and is counted.
        Entry(type: "misc", key: key + String(repeating: "-", count: 20), fields: [], texts: ["text of \(key)"], source: source, offset: 0)
    }

    @Test func entriesMovedAcrossBuffersStayInOrderAndAreFreedOnce() throws {
        weak var weakSource: SourceFile?
        var taken: [Entry] = []
        do {
            let source = SourceFile(path: "test.bib", bytes: Array("@misc{a}".utf8), encoding: .utf8)
            weakSource = source
            let first = EntryBuffer(capacity: 1)
            let second = EntryBuffer(capacity: 1)
            for index in 0..<100 { first.append(Self.entry("a\(index)", in: source)) }
            for index in 0..<150 { second.append(Self.entry("b\(index)", in: source)) }
            second[3].texts[0] = "changed in place"
            first.append(movingFrom: second)
            #expect(second.count == 0)
            #expect(first.count == 250)
            first.append(movingFrom: first)
            #expect(first.count == 250, "a buffer moved into itself is left as it is")
            taken = first.takeAll()
            #expect(first.count == 0)
            let leftOver = EntryBuffer()
            leftOver.append(Self.entry("dropped", in: source))
            // `leftOver` and the emptied buffers are freed here, with what they still hold.
        }
        #expect(taken.count == 250)
        #expect(taken.map(\.key.first) == Array(repeating: "a", count: 100) + Array(repeating: "b", count: 150))
        #expect(taken[0].key.hasPrefix("a0-"))
        #expect(taken[100].key.hasPrefix("b0-"))
        #expect(taken[103].texts == ["changed in place"])
        #expect(taken[249].texts == ["text of b149"])
        #expect(weakSource != nil, "the entries taken still hold their source")
        taken = []
        #expect(weakSource == nil, "every entry released its source exactly once")
    }

    @Test func anEmptyBufferGivesAnEmptyArray() {
        #expect(EntryBuffer().takeAll().isEmpty)
    }
}
