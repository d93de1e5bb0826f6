/// The folders the README's `## Layout` section lists, as a machine reads them.
///
/// The format: the first code block after `## Layout`; a line that does not start with a space
/// starts with one or more paths, separated by `, `, that end at the first run of two spaces
/// (where the description begins). A path after the first is a sibling of the first:
/// `Sources/CCurses, CCurl` lists `Sources/CCurses` and `Sources/CCurl`. A line that starts with
/// a space continues the description above it.
struct ReadmeLayout {
    static let heading = "## Layout"

    /// Each path listed, without a trailing `/`, with its line in the README (from 1).
    let paths: [(path: String, line: Int)]

    /// Reads the layout section of `readme` (the text of README.md).
    init(readme: String) throws {
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(where: { $0.trimmingSpaces == Self.heading }) else {
            throw ArchitectureError("README.md has no heading '\(Self.heading)'")
        }
        guard let open = lines[(start + 1)...].firstIndex(where: { $0.hasPrefix("```") }),
              let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") }) else {
            throw ArchitectureError("README.md has no code block under '\(Self.heading)'")
        }
        var paths: [(path: String, line: Int)] = []
        for index in (open + 1)..<close {
            let line = lines[index]
            guard let first = line.first, first != " " else { continue }
            let listed = line.range(of: "  ").map { String(line[..<$0.lowerBound]) } ?? line
            let names = listed.split(separator: ",").map { String($0).trimmingSpaces }
            guard let head = names.first else { continue }
            let trimmedHead = head.hasSuffix("/") ? String(head.dropLast()) : head
            let parent = trimmedHead.split(separator: "/").dropLast().joined(separator: "/")
            paths.append((trimmedHead, index + 1))
            for sibling in names.dropFirst() {
                let name = sibling.hasSuffix("/") ? String(sibling.dropLast()) : sibling
                paths.append((parent.isEmpty ? name : parent + "/" + name, index + 1))
            }
        }
        self.paths = paths
    }
}
