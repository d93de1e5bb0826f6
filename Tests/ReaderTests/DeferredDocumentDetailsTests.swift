import BibModel
import BibreadTestSupport
import Foundation
import Testing
@testable import ReaderCore

/// A document opened before its page labels and outline are read (issue 31: the first page is
/// shown first) ends in the state that opening it with them gives: the page, the scroll, the
/// mode, the labels, the outline and the status line, for every way of opening (page 1, resumed,
/// a printed page, a page of the file, a label that is no page, past the end), on the labels of
/// real manuals and on hostile ones (repeated, empty-looking, numbers that are not their pages).
@Suite("the labels and the outline after the first page")
struct DeferredDocumentDetailsTests {
    static let labelSets: [[String]] = [
        (1...40).map(String.init),
        ["T-1", "T-2", "i", "ii", "iii", "iv", "v"] + (1...33).map(String.init),
        ["1", "2", "3", "1", "2", "3", "xii", "XII", "A-1", "7"],
        ["5", "4", "3", "2", "1"],
        ["", " ", "2", "2", "2"],
    ]
    static let outline = [OutlineEntry(title: "Preface", level: 0, page: 3), OutlineEntry(title: "One", level: 1, page: nil)]

    /// The view after `documentOpened` with `info`, then `documentDetails` when it was pending.
    static func open(_ info: DocumentInfo, labels: [String], requested: PageRequest?, resume: Int?, scroll: Double,
                     elsewhere: String?) -> (view: ReadingState, message: StatusMessage?, effects: [Effect]) {
        var view = ReadingState(path: "/p.pdf", address: "k", title: "")
        view.requestedPage = requested
        var message: StatusMessage?
        let geometry = ReadingGeometry(width: 100, height: 30)
        var effects = view.update(.documentOpened(path: "/p.pdf", info: info, resumePage: resume, resumeScroll: scroll,
                                                  mode: .layout, readElsewhere: elsewhere), geometry: geometry, message: &message)
        if info.detailsPending {
            #expect(effects.contains(.document(.readDocumentDetails(path: "/p.pdf"))))
            effects.removeAll { $0 == .document(.readDocumentDetails(path: "/p.pdf")) }
            effects += view.update(.documentDetails(path: "/p.pdf", labels: labels, outline: outline), geometry: geometry, message: &message)
        }
        return (view, message, effects)
    }

    @Test func openingBeforeTheLabelsEndsAsOpeningWithThem() {
        for labels in Self.labelSets {
            let requests: [PageRequest?] = [nil, .physical(2), .physical(999), .printed("iv"), .printed("2"), .printed("XII"),
                                            .printed("37"), .printed("1000"), .printed("nowhere"), .printed("A-1")]
            for requested in requests {
                for resume in [nil, 1, 3, labels.count, labels.count + 5] {
                    for elsewhere in [nil, "laptop 2 h ago"] {
                        let full = DocumentInfo(pageCount: labels.count, title: "T", labels: labels, outline: Self.outline)
                        let pending = DocumentInfo(pageCount: labels.count, title: "T", labels: [], outline: [], detailsPending: true)
                        let expected = Self.open(full, labels: labels, requested: requested, resume: resume, scroll: 0.5, elsewhere: elsewhere)
                        let actual = Self.open(pending, labels: labels, requested: requested, resume: resume, scroll: 0.5, elsewhere: elsewhere)
                        var view = actual.view
                        view.provisionalResume = nil
                        let what = "labels \(labels), request \(String(describing: requested)), resume \(String(describing: resume))"
                        #expect(view == expected.view, "\(what)")
                        #expect(actual.message == expected.message, "\(what)")
                        #expect(actual.effects.sorted { "\($0)" < "\($1)" } == expected.effects.sorted { "\($0)" < "\($1)" }, "\(what)")
                    }
                }
            }
        }
    }

    @Test func aMessageThatReplacedTheResumeMessageStays() {
        var view = ReadingState(path: "/p.pdf", address: "k", title: "")
        var message: StatusMessage?
        let geometry = ReadingGeometry(width: 100, height: 30)
        let pending = DocumentInfo(pageCount: 10, title: nil, labels: [], outline: [], detailsPending: true)
        _ = view.update(.documentOpened(path: "/p.pdf", info: pending, resumePage: 4, resumeScroll: 0), geometry: geometry, message: &message)
        #expect(message?.text == "Resumed at p. 4")
        message = StatusMessage("Something else")
        _ = view.update(.documentDetails(path: "/p.pdf", labels: (1...10).map { "x\($0)" }, outline: []), geometry: geometry, message: &message)
        #expect(message?.text == "Something else")
        #expect(view.info?.pageName(4) == "p. x4 (4 of 10)")
        #expect(view.info?.detailsPending == false)
    }

    @Test func anotherDocumentsDetailsAreIgnored() {
        var view = ReadingState(path: "/p.pdf", address: "k", title: "")
        var message: StatusMessage?
        let geometry = ReadingGeometry(width: 100, height: 30)
        let pending = DocumentInfo(pageCount: 3, title: nil, labels: [], outline: [], detailsPending: true)
        _ = view.update(.documentOpened(path: "/p.pdf", info: pending, resumePage: nil, resumeScroll: 0), geometry: geometry, message: &message)
        #expect(view.update(.documentDetails(path: "/other.pdf", labels: ["a", "b", "c"], outline: []), geometry: geometry, message: &message).isEmpty)
        #expect(view.info?.detailsPending == true)
    }
}
