import ArgumentParser

/// The options every editing command takes.
struct EditOptions: ParsableArguments {
    @Flag(help: "Show the lines that would change, and write nothing.")
    var dryRun = false
}
