import ArgumentParser
import Foundation
import Reader
import ReaderCore

/// `bibread-dev reader [--exit-after-first-screen] [LIB.bib…]`: bibread's full-screen reader
/// (`ReaderApp.run`, as `bibread LIB.bib…` runs it) with the hooks the tests and benchmarks use
/// right after the first screen is drawn.
struct ReaderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reader",
        abstract: "Run bibread's reader, with test hooks after the first screen.",
        discussion: """
        Opens the files given (else the configured library, else the one opened last) as \
        'bibread' does. After the first screen is drawn, --exit-after-first-screen returns at once \
        (status 0: the start-up benchmark), and \(CrashHook.variable) crashes on purpose \
        (the end-to-end tests): fatal-error calls fatalError on the main thread; worker-trap \
        raises SIGILL on a background thread, as an optimized build's failed check does, with no \
        message; busy-loop spins on the main thread for good, as a render that never ends would.
        """)

    @Flag(name: .customLong("exit-after-first-screen"), help: "Return right after the first screen is drawn.")
    var exitAfterFirstScreen = false

    @Argument(help: ArgumentHelp("BibTeX files; several files form one library.", valueName: "library.bib"))
    var libraries: [String] = []

    func run() throws {
        let crash = try CrashHook(environment: ProcessInfo.processInfo.environment)
        let exits = exitAfterFirstScreen
        var options = ReaderApp.Options(paths: libraries)
        options.afterFirstScreen = {
            crash?.crash()
            return exits ? .stop : .keepRunning
        }
        ReaderApp.endProcess(ReaderApp.run(options))
    }
}
