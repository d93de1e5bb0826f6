import ArgumentParser
import BibModel

/// `bibread rate LIB… KEY N`.
struct RateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rate",
        abstract: "Rate a reference 0 to 5 (0 removes the rating), in the library's own conventions.",
        discussion: "BibDesk's Rating field, or JabRef's ranking (rank1…rank5). Prints what changed.")

    @Argument(help: ArgumentHelp("The library (.bib files or a synced remote), the cite key, then the rating.",
                                 valueName: "library... key rating"))
    var arguments: [String] = []

    @OptionGroup var options: EditOptions

    func run() throws {
        let (libraries, rest) = EditRun.split(arguments)
        guard rest.count == 2, let rating = Int(rest[1]), (0...5).contains(rating) else {
            throw ValidationError("name the library, one cite key, then a rating from 0 to 5")
        }
        try EditRun.apply([.rate(rating)], keys: [rest[0]], libraries: libraries, command: "rate \(rest[0]) \(rating)", dryRun: options.dryRun)
    }
}
