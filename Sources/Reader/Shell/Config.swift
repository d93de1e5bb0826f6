import Foundation
import TOMLKit

/// Where bibread keeps its files, by the XDG base directory rules.
public struct Directories: Sendable {
    public let config: URL
    public let state: URL

    /// The directories for an environment (`XDG_CONFIG_HOME`, `XDG_STATE_HOME`, `HOME`).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.homeDirectoryForCurrentUser
        func base(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return home.appendingPathComponent(fallback)
        }
        config = base("XDG_CONFIG_HOME", ".config").appendingPathComponent("bibread")
        state = base("XDG_STATE_HOME", ".local/state").appendingPathComponent("bibread")
    }
}

/// The user's settings from `config.toml`.
///
/// ```toml
/// library = "~/papers/library.bib"      # or a list of files
/// color = false                         # monochrome even when the terminal has colours
/// [keys]
/// move-down = ["j", "Down", "C-n"]      # each listed action gets exactly these keys
/// ```
public struct Config: Sendable {
    /// The default library's files, with `~` expanded (relative paths are relative to the config folder).
    public var libraries: [String] = []
    /// False turns colours off.
    public var color = true
    /// `[keys]`: action name to key names.
    public var keys: [String: [String]] = [:]

    public init() {}

    /// The problems found while reading, as `file:line:col: message`; reading goes on past them.
    public private(set) var problems: [String] = []

    /// Reads `config.toml` from `directory`; a missing file gives the defaults.
    public static func load(from directory: URL) -> Config {
        let url = directory.appendingPathComponent("config.toml")
        guard let data = FileManager.default.contents(atPath: url.path) else { return Config() }
        return parse(String(decoding: data, as: UTF8.self), path: url.path, home: ProcessInfo.processInfo.environment["HOME"])
    }

    /// Reads config text; `path` names it in messages and anchors relative library paths.
    public static func parse(_ text: String, path: String, home: String?) -> Config {
        var config = Config()
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            config.problems.append("\(path):\(error.source.begin.line):\(error.source.begin.column): \(error.description)")
            return config
        } catch {
            config.problems.append("\(path): \(error)")
            return config
        }
        let folder = (path as NSString).deletingLastPathComponent
        func expand(_ file: String) -> String {
            if file == "~" || file.hasPrefix("~/"), let home { return home + file.dropFirst() }
            if file.hasPrefix("/") { return file }
            return (folder as NSString).appendingPathComponent(file)
        }
        for key in table.keys {
            guard let value = table[key] else { continue }
            switch key {
            case "library":
                if let single = value.string {
                    config.libraries = [expand(single)]
                } else if let list = value.array {
                    config.libraries = list.compactMap { $0.string.map(expand) }
                } else {
                    config.problems.append("\(path): 'library' must be a file name or a list of file names")
                }
            case "color":
                if let flag = value.bool { config.color = flag } else { config.problems.append("\(path): 'color' must be true or false") }
            case "keys":
                guard let keys = value.table else {
                    config.problems.append("\(path): [keys] must be a table of action = [\"key\", …]")
                    continue
                }
                for action in keys.keys {
                    guard let binding = keys[action] else { continue }
                    if let single = binding.string {
                        config.keys[action] = [single]
                    } else if let list = binding.array {
                        config.keys[action] = list.compactMap(\.string)
                    } else {
                        config.problems.append("\(path): keys.\(action) must be a key name or a list of key names")
                    }
                }
            default:
                config.problems.append("\(path): unknown setting '\(key)' (known: library, color, [keys])")
            }
        }
        return config
    }
}
