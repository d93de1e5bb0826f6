/// Edits `mimeapps.list` (the XDG MIME Applications Associations file).
enum MimeAppsList {
    /// The sections that name applications for a type.
    private static let editedSections: Set<String> = ["[Default Applications]", "[Added Associations]"]

    /// `text` without `desktopFile` in the `mimeType` lines of [Default Applications] and
    /// [Added Associations] (a line left with no application goes); nil when nothing changes.
    /// Every other line is kept as it was.
    static func removing(_ desktopFile: String, for mimeType: String, from text: String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var section = ""
        var changed = false
        var index = 0
        while index < lines.count {
            let line = lines[index]
            let trimmed = line.trimming(" \t\r")
            if trimmed.hasPrefix("[") {
                section = trimmed
            } else if editedSections.contains(section), let equals = trimmed.firstIndex(of: "="),
                      trimmed[..<equals].trimming(" \t") == mimeType
            {
                let applications = trimmed[trimmed.index(after: equals)...].split(separator: ";")
                    .map { $0.trimming(" \t") }.filter { !$0.isEmpty }
                let kept = applications.filter { $0 != desktopFile }
                if kept.count != applications.count {
                    changed = true
                    if kept.isEmpty {
                        lines.remove(at: index)
                        continue
                    }
                    lines[index] = "\(mimeType)=\(kept.joined(separator: ";"));"
                }
            }
            index += 1
        }
        return changed ? lines.joined(separator: "\n") : nil
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters from `characters`.
    func trimming(_ characters: String) -> String {
        let set = Set(characters)
        let start = firstIndex { !set.contains($0) } ?? endIndex
        let end = lastIndex { !set.contains($0) }.map { index(after: $0) } ?? start
        return start < end ? String(self[start..<end]) : ""
    }
}
