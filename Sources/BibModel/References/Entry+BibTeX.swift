extension Entry {
    /// The entry written back as BibTeX, one field a line, values in braces (for copying a
    /// reference into another document). Fields inherited through `crossref` are included, so
    /// the copy stands on its own.
    public var bibTeX: String {
        var lines = ["@\(type){\(key),"]
        var seen = Set<String>()
        for field in fields {
            let name = name(of: field)
            guard seen.insert(name).inserted else { continue }
            let value = rawText(of: field)
            let isNumber = !value.isEmpty && value.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            lines.append("  \(spelledName(of: field)) = \(isNumber ? value : "{\(value)}"),")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}
