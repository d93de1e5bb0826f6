import ArgumentParser

/// `bibread-dev`: bibread's development tools, kept out of the `bibread` program: the reader
/// with its test hooks, the crash-safety writer and the benchmarks (run by the tests, `make
/// bench` and the scripts in `bench/`).
public struct BibreadDev: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "bibread-dev",
        abstract: "bibread's development tools: the reader with test hooks, a stress writer and benchmarks.",
        discussion: "Not part of bibread: the tests, 'make bench' and the scripts in bench/ run these.",
        subcommands: [ReaderCommand.self, WriteStressCommand.self, WriteLibraryCommand.self, SearchLatencyCommand.self, SortLatencyCommand.self, PDFExtractCommand.self,
                      PDFFindCommand.self, LargeBlocksCommand.self,
                      FullTextBenchCommand.self, UploadCommand.self, EditLatencyCommand.self, StateMergeBenchCommand.self])

    public init() {}
}
