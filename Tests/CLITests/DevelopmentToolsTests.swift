import Foundation
import Testing
import BibreadTestSupport

/// The development tools (the reader's test hooks, the stress writer, the benchmarks) are in
/// `bibread-dev`, not in the `bibread` program users run (issue 27, item 6).
@Suite("development tools stay out of bibread")
struct DevelopmentToolsTests {
    /// The names of the development commands, flags and hooks, and the code only they use.
    static let developmentStrings = [
        "BIBREAD_TEST_CRASH", "crashing on purpose", "exit-after-first-screen", "write-stress", "write-library",
        "search-latency", "sort-latency", "pdf-extract", "fulltext-bench", "FullTextBench", "edit-latency",
    ]

    @Test("bibread --help, even with hidden commands and flags shown, names no development tool; bibread-dev's does")
    func helpNamesNoDevelopmentTool() throws {
        var productHelp = ""
        for arguments in [["--help-hidden"], ["browse", "--help-hidden"]] {
            let result = try ProcessRunner.bibread(arguments, environment: ["COLUMNS": "200"])
            #expect(result.status == 0, "bibread \(arguments.joined(separator: " ")): \(result.standardError)")
            productHelp += result.standardOutput
        }
        let development = try ProcessRunner.development(["--help"], environment: ["COLUMNS": "200"])
        #expect(development.status == 0, "bibread-dev --help: \(development.standardError)")
        let readerHelp = try ProcessRunner.development(["reader", "--help"], environment: ["COLUMNS": "200"])
        let developmentHelp = development.standardOutput + readerHelp.standardOutput
        for name in ["write-stress", "write-library", "search-latency", "sort-latency", "pdf-extract", "fulltext-bench", "edit-latency", "exit-after-first-screen", "BIBREAD_TEST_CRASH"] {
            #expect(!productHelp.contains(name), "bibread's help names \(name):\n\(productHelp)")
            #expect(developmentHelp.contains(name), "bibread-dev's help does not name \(name):\n\(developmentHelp)")
        }
    }

    @Test("The bibread binary holds none of the development tools' names, messages and code; bibread-dev holds them all")
    func binaryCarriesNoDevelopmentTool() throws {
        let product = try Data(contentsOf: ProcessRunner.bibreadExecutable)
        let development = try Data(contentsOf: ProcessRunner.developmentExecutable)
        for text in Self.developmentStrings {
            let bytes = Data(text.utf8)
            #expect(product.range(of: bytes) == nil, "\(ProcessRunner.bibreadExecutable.path) contains “\(text)”")
            #expect(development.range(of: bytes) != nil, "\(ProcessRunner.developmentExecutable.path) does not contain “\(text)”")
        }
    }
}
