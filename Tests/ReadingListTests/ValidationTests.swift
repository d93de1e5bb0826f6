import Foundation
import ReadingList
import Testing

@Suite("Tree validation")
struct ValidationTests {
    /// A tree with mistakes at many places, as JSON (Python turns it into plists).
    static let brokenTree = """
        {"Class": "Folder", "Name": "Root", "Children": [
          {"Class": "Bookmark", "Name": "fine", "Reference": {"CiteKey": "a", "Page": 1}},
          "just a string",
          {"Class": "Bookmark", "Name": "bad page", "Reference": {"CiteKey": "b", "Page": "abc"}},
          {"Class": "Bokmark", "Name": "typo"},
          {"Class": "Folder", "Children": [{"Class": "Notemark", "Name": "no text"}]},
          {"Class": "Bookmark", "Name": "range", "Reference": {"Class": "Ref", "CiteKey": "", "Page": 10, "LastPage": 5}},
          {"Class": "Folder", "Name": "f", "Children": {}},
          {"Class": "Bookmark", "Name": 7, "Reference": [1, 2]},
          {"Name": "no class", "Text": "t"},
          {"Class": "Bookmark", "Name": "zero", "Reference": {"CiteKey": 12, "Page": 0, "Library": true}},
          {"Class": "Bookmark", "Name": "no page", "Reference": {"CiteKey": "k"}},
          {"Class": "Bookmark", "Name": "huge", "Reference": {"CiteKey": "k", "Page": 1000001}},
          {"Class": "Bookmark", "Name": "long span", "Reference": {"CiteKey": "k", "Page": 1, "LastPage": 20000}},
          {"Class": "Bookmark", "Name": "real page", "Reference": {"CiteKey": "k", "Page": 2.5}},
          {"Class": "Bookmark", "Name": "no reference"}
        ]}
        """

    static let brokenTreeErrors = [
        "Children[1]: expected a dictionary, found \"just a string\"",
        "Children[2].Reference.Page: expected a number ≥ 1, found \"abc\"",
        "Children[3].Class: expected Folder, Bookmark or Notemark, found \"Bokmark\"",
        "Children[4].Name: missing (expected a string)",
        "Children[4].Children[0].Text: missing (expected a string)",
        "Children[5].Reference.Class: expected Reference, found \"Ref\"",
        "Children[5].Reference.CiteKey: expected a cite key, found \"\"",
        "Children[5].Reference.LastPage: expected a number ≥ Page (10), found 5",
        "Children[6].Children: expected an array, found a dictionary",
        "Children[7].Name: expected a string, found 7",
        "Children[7].Reference: expected a dictionary, found an array",
        "Children[8].Class: missing (expected Folder, Bookmark or Notemark)",
        "Children[9].Reference.CiteKey: expected a cite key, found 12",
        "Children[9].Reference.Library: expected a string, found a boolean",
        "Children[9].Reference.Page: expected a number ≥ 1, found 0",
        "Children[10].Reference.Page: missing (expected a number ≥ 1)",
        "Children[11].Reference.Page: page 1000001 is past the limit of 1000000",
        "Children[12].Reference.LastPage: the range 1–20000 spans 20000 pages, more than the limit of 10000",
        "Children[13].Reference.Page: expected a number ≥ 1, found 2.5",
        "Children[14].Reference: missing (expected a dictionary with CiteKey and Page)",
    ]

    /// The problems `decode` reports for `bytes`, as `path: message` lines.
    private func problems(_ bytes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> [String] {
        guard case .invalid(let problems)? = readingListError({ _ = try ReadingListCoder.decode(bytes) }, sourceLocation: sourceLocation) else {
            Issue.record("expected .invalid", sourceLocation: sourceLocation)
            return []
        }
        #expect(problems.allSatisfy { $0.severity == .error }, sourceLocation: sourceLocation)
        return problems.map(\.description)
    }

    @Test("every error is reported at once, with its path, in JSON")
    func allErrorsJSON() {
        #expect(problems(Array(Self.brokenTree.utf8)) == Self.brokenTreeErrors)
    }

    @Test("the same errors are reported with the same paths in XML and binary plists", arguments: ["FMT_XML", "FMT_BINARY"])
    func allErrorsPlists(format: String) throws {
        let bytes = try Python.bytes("""
            import base64, json, plistlib, sys
            tree = json.loads(open(sys.argv[1], encoding='utf-8').read())
            print(base64.b64encode(plistlib.dumps(tree, fmt=plistlib.\(format))).decode())
            """, input: Array(Self.brokenTree.utf8))
        #expect(problems(bytes) == Self.brokenTreeErrors)
    }

    @Test("the error description counts the errors and lists each on its own line")
    func invalidDescription() {
        let error = ReadingListError.invalid([
            ListProblem(.error, path: "Children[2].Reference.Page", message: "expected a number ≥ 1, found \"abc\""),
            ListProblem(.error, path: "", message: "expected a dictionary, found an array"),
        ])
        #expect(error.description == """
            2 errors in the reading list:
              Children[2].Reference.Page: expected a number ≥ 1, found "abc"
              root: expected a dictionary, found an array
            """)
    }

    @Test("a root that is not a dictionary is an error", arguments: ["[]", "[{\"Class\": \"Folder\"}]"])
    func rootArray(json: String) {
        #expect(problems(Array(json.utf8)) == ["root: expected a dictionary, found an array"])
    }

    @Test("the root must be a folder")
    func rootClass() {
        #expect(problems(Array(#"{"Class": "Bookmark", "Name": "x", "Children": []}"#.utf8))
                == ["Class: expected Folder, found \"Bookmark\""])
        #expect(problems(Array(#"{"Name": "x"}"#.utf8)) == ["Class: missing (expected Folder)"])
        #expect(problems(Array(#"{"Class": "Folder", "Name": ["x"], "IncludesPageNotes": "maybe"}"#.utf8))
                == ["Name: expected a string, found an array", "IncludesPageNotes: expected YES or NO, found \"maybe\""])
    }

    @Test("a root without Class but with Children, and without Name, is accepted")
    func lenientRoot() throws {
        let decoded = try ReadingListCoder.decode(Array(#"{"Children": [{"Class": "Notemark", "Name": "n", "Text": "t"}]}"#.utf8))
        #expect(decoded.list == ReadingList(root: BookmarkFolder(name: "", children: [.notemark(Notemark(name: "n", text: "t"))])))
    }

    @Test("unknown keys are ignored")
    func unknownKeys() throws {
        let json = """
            {"Class": "Folder", "Name": "R", "Color": [1, {"x": null}], "Children": [
              {"Class": "Bookmark", "Name": "b", "Icon": "star",
               "Reference": {"CiteKey": "k", "Page": 3, "Extra": {"deep": [[]]}}}]}
            """
        let decoded = try ReadingListCoder.decode(Array(json.utf8))
        #expect(decoded.list.bookmarks == [Bookmark(name: "b", reference: PageReference(citeKey: "k", page: 3))])
    }

    @Test("IncludesPageNotes accepts booleans and YES/yes/true/1; NO/false/0 turn notes off",
          arguments: [("true", true), ("\"YES\"", true), ("\"yes\"", true), ("\"true\"", true), ("\"1\"", true), ("1", true),
                      ("false", false), ("\"NO\"", false), ("\"false\"", false), ("\"0\"", false)])
    func includesPageNotes(flag: String, included: Bool) throws {
        let json = """
            {"Class": "Folder", "Name": "R", "IncludesPageNotes": \(flag), "Children": [
              {"Class": "Bookmark", "Name": "b", "Reference": {"CiteKey": "k", "Page": 3, "LastPage": 4}, "Notes": ["p3", "p4"]}]}
            """
        let decoded = try ReadingListCoder.decode(Array(json.utf8))
        #expect(decoded.list.includesPageNotes == included)
        #expect(decoded.list.bookmarks.first?.notes == (included ? ["p3", "p4"] : []))
        #expect(decoded.warnings.isEmpty == included)
    }

    @Test("notes without IncludesPageNotes are ignored with one warning")
    func ignoredNotesWarning() throws {
        let json = """
            {"Class": "Folder", "Name": "R", "Children": [
              {"Class": "Bookmark", "Name": "a", "Reference": {"CiteKey": "k", "Page": 3}, "Notes": ["x"]},
              {"Class": "Folder", "Name": "F", "Children": [
                {"Class": "Bookmark", "Name": "b", "Reference": {"CiteKey": "k", "Page": 3}, "Notes": [1, 2, 3, 4]}]}]}
            """
        let decoded = try ReadingListCoder.decode(Array(json.utf8))
        #expect(decoded.list.bookmarks.allSatisfy { $0.notes.isEmpty })
        #expect(decoded.warnings == [ListProblem(.warning, path: "", message:
            "Notes ignored: the root does not set IncludesPageNotes = YES (2 bookmarks have notes, the first at Children[0].Notes)")])
        #expect(decoded.warnings.first?.description.hasPrefix("root: Notes ignored") == true)
    }

    @Test("notes are checked when included: strings only, no more than the pages")
    func notesChecked() {
        let json = """
            {"Class": "Folder", "Name": "R", "IncludesPageNotes": "YES", "Children": [
              {"Class": "Bookmark", "Name": "a", "Reference": {"CiteKey": "k", "Page": 3}, "Notes": ["x", "y"]},
              {"Class": "Bookmark", "Name": "b", "Reference": {"CiteKey": "k", "Page": 3, "LastPage": 5}, "Notes": ["x", 2]},
              {"Class": "Bookmark", "Name": "c", "Reference": {"CiteKey": "k", "Page": 3, "LastPage": 5}, "Notes": "x"},
              {"Class": "Bookmark", "Name": "d", "Reference": {"CiteKey": "k", "Page": 3, "LastPage": 5}, "Notes": ["a", "b", "c", "d"]}]}
            """
        #expect(problems(Array(json.utf8)) == [
            "Children[0].Notes: 2 notes for 1 page (p. 3)",
            "Children[1].Notes[1]: expected a string, found 2",
            "Children[2].Notes: expected an array of strings, found \"x\"",
            "Children[3].Notes: 4 notes for 3 pages (p. 3–5)",
        ])
    }

    @Test("long strings are cut in messages")
    func longStringsCut() {
        let long = String(repeating: "x", count: 100)
        let json = #"{"Class": "Folder", "Name": "R", "Children": [{"Class": "\#(long)", "Name": "n"}]}"#
        #expect(problems(Array(json.utf8))
                == ["Children[0].Class: expected Folder, Bookmark or Notemark, found \"\(String(repeating: "x", count: 40))…\""])
    }

    @Test("the limits on pages and spans follow ReadingListLimits")
    func customPageLimits() throws {
        var limits = ReadingListLimits()
        limits.maxPage = 50
        limits.maxPageSpan = 5
        let json = """
            {"Class": "Folder", "Name": "R", "Children": [
              {"Class": "Bookmark", "Name": "a", "Reference": {"CiteKey": "k", "Page": 51}},
              {"Class": "Bookmark", "Name": "b", "Reference": {"CiteKey": "k", "Page": 10, "LastPage": 15}},
              {"Class": "Bookmark", "Name": "c", "Reference": {"CiteKey": "k", "Page": 10, "LastPage": 14}}]}
            """
        guard case .invalid(let problems)? = readingListError({ _ = try ReadingListCoder.decode(Array(json.utf8), limits: limits) }) else {
            Issue.record("expected .invalid")
            return
        }
        #expect(problems.map(\.description) == [
            "Children[0].Reference.Page: page 51 is past the limit of 50",
            "Children[1].Reference.LastPage: the range 10–15 spans 6 pages, more than the limit of 5",
        ])
    }
}
