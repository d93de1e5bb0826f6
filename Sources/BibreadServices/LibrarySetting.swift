import BibreadValues
import Foundation
import TOMLKit

/// A `[[library]]` table of config.toml: a local library file, and where the folders its links
/// name on the machine that wrote it are on this one.
///
/// ```toml
/// [[library]]
/// path = "~/Papers/library.bib"
/// [library.path_mapping]
/// "/Users/jane/Papers" = "~/Papers"
/// ```
public struct LibrarySetting: Sendable, Equatable {
    /// The library file, with `~` expanded (relative to the config folder when relative).
    public var path: String
    /// A folder of the other machine (as its links spell it) to the same folder here (absolute:
    /// `~` expanded, a relative folder taken from the library's folder).
    public var pathMapping: [String: String] = [:]

    /// The library and its mapping.
    public init(path: String, pathMapping: [String: String] = [:]) {
        self.path = path
        self.pathMapping = pathMapping
    }
}

extension LibrarySetting {
    /// The `library` key's items (file names, and `[[library]]` tables) read in order: the
    /// files, the settings of the tables, and the problems, as `path:line:col: message` (the
    /// line and column of the table or its key, when the text has the `[[library]]` form).
    static func read(_ items: TOMLArray, text: String, path: String, expand: (String) -> String)
        -> (files: [String], settings: [LibrarySetting], problems: [String])
    {
        var files: [String] = []
        var settings: [LibrarySetting] = []
        var problems: [String] = []
        let scanned = TOMLPlaces(text: text, arrayName: "library")
        let tableCount = items.count { $0.table != nil }
        let places = scanned.count == tableCount ? scanned : nil
        var tableIndex = -1
        for (number, item) in items.enumerated() {
            if let file = item.string {
                files.append(expand(file))
                continue
            }
            guard let table = item.table else {
                problems.append("\(path): library \(number + 1) must be a file name or a [[library]] table")
                continue
            }
            tableIndex += 1
            func report(_ message: String, key: String?) {
                var location = path
                if let place = places?.place(ofTable: tableIndex, key: key) { location += ":\(place.line):\(place.column)" }
                problems.append("\(location): [[library]] \(tableIndex + 1): \(message)")
            }
            guard let file = table["path"]?.string, !file.isEmpty else {
                report("needs path = \"…\" (the library's .bib file)", key: table["path"] != nil ? "path" : nil)
                continue
            }
            var setting = LibrarySetting(path: expand(file))
            for key in table.keys where key != "path" && key != "path_mapping" {
                report("unknown key '\(key)' (known: path, path_mapping)", key: key)
            }
            if let value = table["path_mapping"] {
                if let mapping = value.table {
                    setting.pathMapping = readMapping(mapping, libraryFolder: (setting.path as NSString).deletingLastPathComponent,
                                                      expand: expand, report: report)
                } else {
                    report("path_mapping must be a table: \"folder on the other machine\" = \"the same folder here\"", key: "path_mapping")
                }
            }
            files.append(setting.path)
            settings.append(setting)
        }
        return (files, settings, problems)
    }

    /// A `[library.path_mapping]` table; each bad pair is reported and left out.
    private static func readMapping(_ table: TOMLTable, libraryFolder: String, expand: (String) -> String,
                                    report: (String, String?) -> Void) -> [String: String] {
        var mapping: [String: String] = [:]
        for from in table.keys {
            let key = "\"\(from)\""
            guard let target = table[from]?.string, !target.isEmpty else {
                report("path_mapping \(key) must be a folder name in quotes", key)
                continue
            }
            guard isAbsoluteOnAnyMachine(from) else {
                report("path_mapping \(key) must be an absolute folder of the machine that wrote the library, such as \"/Users/jane/Papers\"", key)
                continue
            }
            let here = target == "~" || target.hasPrefix("~/") || target.hasPrefix("/")
                ? expand(target) : (libraryFolder as NSString).appendingPathComponent(target)
            mapping[from] = URL(fileURLWithPath: here).standardizedFileURL.path
        }
        return mapping
    }

    /// `/…`, `C:\…` or `C:/…`, or `\\server\…`.
    private static func isAbsoluteOnAnyMachine(_ folder: String) -> Bool {
        if folder.hasPrefix("/") || folder.hasPrefix("\\\\") { return true }
        let characters = Array(folder.prefix(3))
        return characters.count == 3 && characters[0].isLetter && characters[1] == ":" && (characters[2] == "\\" || characters[2] == "/")
    }
}
