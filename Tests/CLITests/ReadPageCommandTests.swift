import BibreadTestSupport
import Foundation
import Testing

/// `bibread read --page` reads the labels on another thread while it reads the page that
/// `--page` most likely names (issue 31): what it prints is the page the labels name, whether
/// that guess was right (`237`, `#12`) or not (`5`, printed on the 12th page of R-exts.pdf, whose
/// front matter is T-1, T-2, i–v), the same as asking for that page of the file with `#N`.
@Suite("bibread read --page")
struct ReadPageCommandTests {
    static let manual = Fixtures.corpus("pdfs/R-exts.pdf")

    static func read(_ arguments: [String], in root: URL) throws -> ProcessResult {
        let library = root.appendingPathComponent("library.bib")
        if !FileManager.default.fileExists(atPath: library.path) {
            try "@manual{rexts, title = {Writing R Extensions}, file = {:\(manual.path):PDF}}\n"
                .write(to: library, atomically: true, encoding: .utf8)
        }
        return try ProcessRunner.bibread(["read", library.path, "rexts"] + arguments, environment: Fixtures.isolatedEnvironment(under: root))
    }

    @Test func thePagePrintedIsTheOneTheLabelsNameWhetherTheGuessWasRightOrNot() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // Label, the page of the file it names (first page with the label, as the reader's rule).
        let cases: [(String, Int)] = [("5", 12), ("iv", 6), ("IV", 6), ("T-2", 2), ("#12", 12), ("229", 236), ("1", 8)]
        for (label, page) in cases {
            let json = try Self.read(["--page", label, "--json", "--width", "80"], in: root)
            #expect(json.status == 0, "\(label): \(json.standardError)")
            let object = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
            #expect(object?["page"] as? Int == page, "\(label)")
            let byLabel = try Self.read(["--page", label, "--width", "80"], in: root)
            let byPage = try Self.read(["--page", "#\(page)", "--width", "80"], in: root)
            #expect(byLabel.status == 0 && byPage.status == 0)
            #expect(byLabel.standardOutput == byPage.standardOutput, "\(label) and #\(page) print different text")
            #expect(!byLabel.standardOutput.isEmpty)
        }
    }

    @Test func aNumberNoPageIsLabelledWithAndAPagePastTheEndSaySoAsBefore() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        // 233: no page is labelled so (the last is 229), but the file has a 233rd page.
        let unlabelled = try Self.read(["--page", "233", "--width", "80"], in: root)
        #expect(unlabelled.status == 0)
        #expect(unlabelled.standardError.contains("No page is labelled 233: showing page #233 of the file, printed 226"), "\(unlabelled.standardError)")
        #expect(unlabelled.standardOutput == (try Self.read(["--page", "#233", "--width", "80"], in: root)).standardOutput)
        let past = try Self.read(["--page", "999"], in: root)
        #expect(past.status != 0)
        #expect(past.standardError.contains("past the end"), "\(past.standardError)")
    }
}
