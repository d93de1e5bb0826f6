import BibreadTestSupport
import Foundation
@testable import FullText
#if canImport(Glibc)
import Glibc
#endif

/// A tool's failure in a test's setup.
struct ToolFailure: Error, CustomStringConvertible {
    var description: String
}

/// Runs `tool` (looked up in PATH) through `ProcessRunner`; its standard output, or an error
/// with its standard error when it exits with a status not in `allowed`.
@discardableResult
func runTool(_ tool: String, _ arguments: [String], allowed: Set<Int32> = [0]) throws -> String {
    let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments)
    guard allowed.contains(result.status) else {
        throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(result.status): \(result.standardError)")
    }
    return result.standardOutput
}

/// `pdftotext -f N -l N FILE -`: the text of page `page` as pdftotext gives it.
func pdftotext(_ path: String, page: Int, layout: Bool = false) throws -> String {
    try runTool("pdftotext", (layout ? ["-layout"] : []) + ["-f", "\(page)", "-l", "\(page)", path, "-"])
}

/// A PDF of the shared corpora's `pdfs` folder.
func corpusPDF(_ name: String) -> String {
    Fixtures.corpus("pdfs/\(name)").path
}

/// A sample PDF of `Samples/papers`.
func samplePDF(_ name: String) -> String {
    Fixtures.samples.appendingPathComponent("papers/\(name)").path
}

/// Every sample PDF, sorted.
var samplePDFs: [String] {
    ["incompleteness.pdf", "information-theory.pdf", "line-breaking.pdf", "shortest-paths.pdf", "tex-tour.pdf"].map(samplePDF)
}

/// A temporary folder with an index in it, removed by `remove()`.
struct Workspace {
    let folder: URL
    let index: FullTextIndex

    init() throws {
        folder = try Fixtures.temporaryDirectory()
        index = try FullTextIndex(url: folder.appendingPathComponent("cache/bibread/fulltext.sqlite"))
    }

    /// Copies `source` into the folder as `name`; the copy's path.
    @discardableResult
    func copy(_ source: String, as name: String) throws -> String {
        let target = folder.appendingPathComponent(name).path
        try? FileManager.default.removeItem(atPath: target)
        try FileManager.default.copyItem(atPath: source, toPath: target)
        return target
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// The modification time of `path` in nanoseconds.
func modificationTime(_ path: String) -> timespec? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mtim
}

/// Sets the modification (and access) time of `path`.
func setModificationTime(_ path: String, _ time: timespec) throws {
    var times = [time, time]
    guard utimensat(AT_FDCWD, path, &times, 0) == 0 else {
        throw ToolFailure(description: "utimensat \(path): \(String(cString: strerror(errno)))")
    }
}

/// A distinctive run of `count` words from the middle of `text`: words of letters only, at
/// least 3 letters, in a row on one line; nil when the text has none.
func distinctivePhrase(in text: String, count: Int = 4) -> String? {
    let lines = text.split(separator: "\n").map(String.init)
    var candidates: [[String]] = []
    for line in lines {
        var run: [String] = []
        for token in line.split(separator: " ").map(String.init) {
            if token.count >= 3, token.allSatisfy({ $0.isLetter && $0.isASCII }) {
                run.append(token)
                if run.count == count {
                    candidates.append(run)
                    run.removeFirst()
                }
            } else {
                run = []
            }
        }
    }
    guard !candidates.isEmpty else { return nil }
    return candidates[candidates.count / 2].joined(separator: " ")
}

/// Makes a PDF with pycairo (Debian's python3-cairo, which `Samples/make-samples.py` uses too):
/// one page per element of `pages`, each a list of lines set in DejaVu Serif.
func makePDF(at path: String, pages: [[String]]) throws {
    let script = """
        import json, sys, cairo
        pages = json.loads(sys.argv[2])
        surface = cairo.PDFSurface(sys.argv[1], 595, 842)
        context = cairo.Context(surface)
        context.select_font_face("DejaVu Serif", cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_NORMAL)
        context.set_font_size(12)
        for lines in pages:
            for number, line in enumerate(lines):
                context.move_to(72, 100 + 16 * number)
                context.show_text(line)
            context.show_page()
        surface.finish()
        """
    let json = String(decoding: try JSONEncoder().encode(pages), as: UTF8.self)
    try runTool("/usr/bin/python3", ["-c", script, path, json])
}
