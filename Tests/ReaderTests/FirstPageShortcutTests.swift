import BibreadTestSupport
import Foundation
import PDFText
import ReaderCore
import Testing

/// `DocumentInfo.firstPage` (issue 31: `read --page` without every page's label) names the page
/// `resolve` names with every label, whenever it names one: on the corpora's manuals, on the
/// 2,420-page labelled PDF of the benchmark, and on hostile page labels (repeated numbering,
/// prefixes, roman numerals in either case, labels that are only a prefix, ranges out of order,
/// starts of 0 and below).
@Suite("the first page of a label without every label")
struct FirstPageShortcutTests {
    /// Checks every request against `resolve`; returns how many the shortcut answered.
    @discardableResult
    static func check(_ path: String, requests extra: [String] = [], labelStride: Int = 1) throws -> Int {
        let quick = try PDFDocument(path: path)
        let full = try PDFDocument(path: path)
        let labels = full.pageLabels
        let info = DocumentInfo(pageCount: full.pageCount, title: nil, labels: labels, outline: [])
        var typed = Set(extra)
        for (index, label) in labels.enumerated() where index % labelStride == 0 || index == labels.count - 1 {
            typed.formUnion([label, label.uppercased(), label.lowercased(), " \(label) ", label + "x", "#\(index + 1)"])
        }
        typed.formUnion(["0", "1", "2", "-1", "", " ", "abc", "i", "I", "iv", "IV", "A-1", "\(full.pageCount)",
                         "\(full.pageCount + 1)", "99999", "#0", "#1", "#\(full.pageCount)", "#\(full.pageCount + 1)",
                         "١٢", "2\u{0}", "1.0", "+3", "0x10", "1e3"])
        var answered = 0
        for text in typed.sorted() {
            guard let request = PageRequest(typed: text) else { continue }
            let expected = info.resolve(request)
            let found = DocumentInfo.firstPage(of: request, pageCount: quick.pageCount,
                                               candidate: { quick.pageNumber(labelled: $0) },
                                               labels: { quick.pageLabels(through: $0) })
            if let found {
                answered += 1
                #expect(expected == .page(found), "\(path): '\(text)' gives page \(found), resolve \(expected)")
            }
        }
        return answered
    }

    @Test func theCorporaManuals() throws {
        let folder = Fixtures.corpus("pdfs")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".pdf") }.sorted()
        #expect(!names.isEmpty)
        var answered = 0
        for name in names {
            answered += try Self.check(folder.appendingPathComponent(name).path)
        }
        #expect(answered > 100)
    }

    @Test func theLabelledPDFOfTheBenchmark() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manual = Fixtures.corpus("pdfs/R-exts.pdf").path
        let box = Fixtures.corpus("pdfs/tcolorbox.pdf").path
        let labelled = folder.appendingPathComponent("labelled.pdf").path
        let qpdf = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/qpdf"),
                                         [manual, "--pages", manual, box, box, box, box, "--", labelled])
        #expect(qpdf.status == 0 || qpdf.status == 3, "\(qpdf.standardError)")
        let answered = try Self.check(labelled, requests: ["2000", "1999", "2001", "#2000", "xii"], labelStride: 41)
        #expect(answered > 100)
        // The benchmark's page: poppler's look-up finds it, and it is the first with its label.
        let document = try PDFDocument(path: labelled)
        #expect(DocumentInfo.firstPage(of: .printed("2000"), pageCount: document.pageCount,
                                       candidate: { document.pageNumber(labelled: $0) },
                                       labels: { document.pageLabels(through: $0) }) != nil)
    }

    @Test func hostileLabels() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        typealias Range = LabelledPDF.Range
        let sets: [[Range]] = [
            [Range(firstPage: 1), Range(firstPage: 6)],  // numbered from 1 twice
            [Range(firstPage: 1, style: .romanLower), Range(firstPage: 5), Range(firstPage: 12, style: .romanUpper)],
            [Range(firstPage: 1, style: nil, prefix: "Cover"), Range(firstPage: 2, prefix: "A-"), Range(firstPage: 9, prefix: "A-")],
            [Range(firstPage: 8), Range(firstPage: 3, style: .romanLower)],  // out of order
            [Range(firstPage: 1, start: 0), Range(firstPage: 4, start: -5), Range(firstPage: 10, start: 7)],
            [Range(firstPage: 1, style: .lettersUpper), Range(firstPage: 7, style: .lettersLower)],
            [Range(firstPage: 1, style: .arabic, start: 3), Range(firstPage: 1, style: .romanLower)],  // the same page twice
            [Range(firstPage: 40), Range(firstPage: 2, prefix: "1")],  // past the end; a prefix that reads as a number
            [Range(firstPage: 1, prefix: "2"), Range(firstPage: 5, prefix: " 3")],
        ]
        for (number, ranges) in sets.enumerated() {
            let url = folder.appendingPathComponent("hostile-\(number).pdf")
            try LabelledPDF.write(pageCount: 16, ranges: ranges, to: url)
            try Self.check(url.path, requests: ["21", "22", "Cover", "cover", "A-3", "a-3", "XIV", "xiv", "B", "b", "AA", "13", "23"])
        }
    }
}
