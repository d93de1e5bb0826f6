import Foundation
import BibreadTestSupport

/// Command-line tools the PDF tests compare with or make files with (poppler-utils' pdftotext,
/// qpdf; scripts/install-deps.sh installs them for the tests).
enum Tools {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs `tool` (looked up in PATH) with `arguments`; its standard output, or an error with its
    /// standard error when it exits non-zero. `allowedStatuses` are exit statuses that count as
    /// success besides 0 (qpdf exits 3 for warnings).
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], allowedStatuses: Set<Int32> = []) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read both pipes before waiting, so a large output cannot fill a pipe and stall the tool.
        let group = DispatchGroup()
        nonisolated(unsafe) var errorData = Data()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        let status = process.terminationStatus
        guard status == 0 || allowedStatuses.contains(status) else {
            throw Failure(description: "\(tool) \(arguments.joined(separator: " ")) exited \(status): "
                + String(decoding: errorData, as: UTF8.self))
        }
        return data
    }

    /// `pdftotext` of pages `first...last` of `path`, one string per page (pdftotext ends every
    /// page with a form feed).
    static func pdftotext(_ path: String, pages: ClosedRange<Int>) throws -> [String] {
        let data = try run("pdftotext", ["-f", "\(pages.lowerBound)", "-l", "\(pages.upperBound)", path, "-"])
        let pagesText = String(decoding: data, as: UTF8.self).components(separatedBy: "\u{0C}")
        // The text after the last form feed is empty.
        return Array(pagesText.dropLast())
    }
}

/// Whitespace runs collapsed to one space, ends trimmed.
func normalizedWhitespace(_ text: String) -> String {
    text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
}

/// A sample PDF of `Samples/papers`.
func samplePDF(_ name: String) -> String {
    Fixtures.samples.appendingPathComponent("papers/\(name)").path
}

/// A PDF of the shared corpora's `pdfs` folder.
func corpusPDF(_ name: String) -> String {
    Fixtures.corpus("pdfs/\(name)").path
}

/// Every PDF of the shared corpora's `pdfs` folder, by name (the fast paths' tests read them all).
let corpusPDFNames = ["R-exts.pdf", "R-intro.pdf", "biblatex.pdf", "tcolorbox.pdf"]
