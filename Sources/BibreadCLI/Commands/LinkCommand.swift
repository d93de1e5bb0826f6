import ArgumentParser
import BibModel
import Foundation

extension Intention: ExpressibleByArgument {}

/// `bibread link KEY[:PAGES]…`: prints the link to references and pages.
struct LinkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "link", abstract: "Print a bibread:// link to references and pages.",
        discussion: """
        Each target is a cite key, with a page or a page range: knuth84, knuth84:12, \
        knuth84:12-14. Pages are printed pages (page labels), as in a citation; knuth84:#12 is \
        the 12th page of the file (written %23 in the link). Several targets to the same paper in a row form one group. Anyone can \
        build these links: bibread://open?refs=[KEY:12-14,KEY:20],[KEY2]&library=NAME&intention=read.
        """)

    @Argument(help: ArgumentHelp("Cite keys with optional printed pages: KEY, KEY:12, KEY:12-14; KEY:#12 for the 12th page of the file.",
                                 valueName: "key[:pages]"))
    var targets: [String]

    @Option(help: "What the link is for: read, study, cite or listen.")
    var intention: Intention = .read

    @Option(help: ArgumentHelp("The library's name to put in the link (a remote's name or a .bib file name).", valueName: "name"))
    var library: String?

    func validate() throws {
        if targets.isEmpty { throw ValidationError("give at least one cite key") }
    }

    func run() throws {
        var papers: [PaperReference] = []
        for target in targets {
            do {
                let paper = try ReferenceLink.parseTarget(target)
                if let last = papers.last, last.key.lowercased() == paper.key.lowercased(), !paper.pages.isEmpty, !last.pages.isEmpty,
                   last.numbering == paper.numbering {
                    papers[papers.count - 1].pages += paper.pages
                } else {
                    papers.append(paper)
                }
            } catch let error as ReferenceLinkError {
                Console.error("bibread: \(error)\n\(error.pointing(at: target))")
                throw ExitCode(64)
            }
        }
        let link = ReferenceLink(papers: papers, library: library, intention: intention)
        if link.url.count > ReferenceLink.maxLength || papers.count > ReferenceLink.maxPapers {
            Console.error("bibread: the link would be too long (at most \(ReferenceLink.maxPapers) papers, \(ReferenceLink.maxLength) characters)")
            throw ExitCode(64)
        }
        Console.print(link.url)
    }
}
