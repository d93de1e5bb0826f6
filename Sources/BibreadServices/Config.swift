import BibreadValues
import DiskIO
import Foundation
import SyncEngine
import TOMLKit

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
    /// `[[remote]]`: the places libraries are synced from.
    public var remotes: [Remote] = []
    /// The most the PDF cache of each remote may hold, in bytes (`cache_limit = "2GB"`; the
    /// default is that same 2 GB, 2 × 10^9 bytes, as `ByteCount` reads and writes sizes).
    public var cacheLimit: Int64 = 2_000_000_000
    /// Whether PDFs download while the connection is metered.
    public var syncOnMetered = true
    /// Downloads at once.
    public var parallelDownloads = 4
    /// `[[library]]` tables: local library files with the `path_mapping` of the machine that
    /// wrote their links (their files are in `libraries` too).
    public var librarySettings: [LibrarySetting] = []
    // Sync that keeps going (issue 30)
    /// `sync_on_open`: whether the reader syncs a remote's library in the background when it
    /// opens it (default true).
    public var syncOnOpen = true
    /// `sync_every`: how often the reader syncs a remote's library while it is open (nil: never;
    /// the default).
    public var syncEvery: SyncInterval?
    /// `device_name`: how this machine is named to the others that share its reading state
    /// (nil: the host name).
    public var deviceName: String?
    /// `dropbox_app_key`: the app key of the user's Dropbox app, for `bibread login dropbox`.
    public var dropboxAppKey: String?
    /// The file's text and path, when it has `[[handler]]` tables: the "open with" registry
    /// reads them (and reports their problems) itself.
    public var handlerSource: (text: String, path: String)?

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
    /// Why `name` cannot name this machine (empty, over 64 characters, a control character),
    /// or nil.
    static func deviceNameProblem(_ name: String) -> String? {
        if name.trimmingCharacters(in: .whitespaces).isEmpty { return "must not be empty" }
        if name.count > 64 { return "must be at most 64 characters" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.generalCategory == .format }) {
            return "must not hold control or formatting characters"
        }
        return nil
    }

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
                    // File names, and [[library]] tables with a path_mapping.
                    let read = LibrarySetting.read(list, text: text, path: path, expand: expand)
                    (config.libraries, config.librarySettings) = (read.files, read.settings)
                    config.problems += read.problems
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
            case "remote":
                guard let list = value.array else {
                    config.problems.append("\(path): remotes are written as [[remote]] tables")
                    continue
                }
                for (index, item) in list.enumerated() {
                    guard let table = item.table else { continue }
                    do {
                        config.remotes.append(try remote(from: table))
                    } catch {
                        config.problems.append("\(path): remote \(index + 1): \(error)")
                    }
                }
            case "cache_limit":
                if let text = value.string, let bytes = ByteCount.parse(text) {
                    config.cacheLimit = bytes
                } else if let number = value.int {
                    config.cacheLimit = Int64(number)
                } else {
                    config.problems.append("\(path): cache_limit must be a size such as \"2GB\" or \"500MB\"")
                }
            case "sync_on_metered":
                if let flag = value.bool { config.syncOnMetered = flag } else { config.problems.append("\(path): sync_on_metered must be true or false") }
            case "handler":
                config.handlerSource = (text, path)
            case "device_name":
                if let name = value.string, let problem = deviceNameProblem(name) {
                    config.problems.append("\(path): device_name \(problem)")
                } else if let name = value.string {
                    config.deviceName = name
                } else {
                    config.problems.append("\(path): device_name must be a name in quotes, such as \"laptop\"")
                }
            case "dropbox_app_key":
                if let key = value.string, !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) {
                    config.dropboxAppKey = key
                } else {
                    config.problems.append("\(path): dropbox_app_key must be the app key from Dropbox's App Console, letters and digits in quotes")
                }
            case "parallel_downloads":
                if let number = value.int, number >= 1, number <= 32 {
                    config.parallelDownloads = number
                } else {
                    config.problems.append("\(path): parallel_downloads must be a number from 1 to 32")
                }
            case "sync_on_open":
                if let flag = value.bool { config.syncOnOpen = flag } else { config.problems.append("\(path)\(place(of: key, in: text)): sync_on_open must be true or false") }
            case "sync_every":
                if let interval = value.string.flatMap(SyncInterval.init(parsing:)) {
                    config.syncEvery = interval
                } else {
                    config.problems.append("\(path)\(place(of: key, in: text)): sync_every must be \(SyncInterval.expected)")
                }
            default:
                config.problems.append("\(path): unknown setting '\(key)' (known: library, color, cache_limit, sync_on_metered, sync_on_open, sync_every, parallel_downloads, device_name, dropbox_app_key, [keys], [[remote]], [[library]], [[handler]])")
            }
        }
        return config
    }

    /// `:LINE:COL` of the value of the top-level `key` in `text` (before any table), or "" when
    /// it is not found there: TOMLKit gives no positions of values.
    static func place(of key: String, in text: String) -> String {
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.hasPrefix("[") { break }
            guard trimmed.hasPrefix(key) else { continue }
            let rest = trimmed.dropFirst(key.count).drop { $0 == " " || $0 == "\t" }
            guard rest.first == "=" else { continue }
            let value = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            return ":\(index + 1):\(line.distance(from: line.startIndex, to: value.startIndex) + 1)"
        }
        return ""
    }

    /// A `[[remote]]` table: name, url, kind, libraries, credentials, path_mapping.
    static func remote(from table: TOMLTable) throws -> Remote {
        guard let url = table["url"]?.string else { throw ConfigError("needs url = \"…\"") }
        var kind: Remote.Kind?
        if let text = table["kind"]?.string {
            guard let parsed = Remote.Kind(rawValue: text) else { throw ConfigError("kind must be folder, webdav, sftp, dropbox, http or rclone") }
            kind = parsed
        }
        var remote = try Remote(url: url, kind: kind)
        if let name = table["name"]?.string {
            guard RemoteName.isPlain(name) else {
                throw ConfigError("name must be a plain folder name (not empty, no '/', not starting with '.')")
            }
            remote.name = name
        }
        if let libraries = table["libraries"]?.array { remote.libraries = libraries.compactMap(\.string) }
        if let user = table["user_env"]?.string, let password = table["password_env"]?.string {
            remote.credentials = .environment(user: user, password: password)
        } else if let variable = table["token_env"]?.string {
            remote.credentials = .tokenEnvironment(variable)
        } else if let command = table["token_command"]?.string {
            remote.credentials = .tokenCommand(command)
        } else if let key = table["ssh_key"]?.string {
            remote.credentials = .sshKey(privateKey: key, publicKey: table["ssh_public_key"]?.string)
        }
        if let knownHosts = table["known_hosts"]?.string { remote.knownHosts = knownHosts }
        if let base = table["api_base"]?.string { remote.apiBase = base }
        if let mapping = table["path_mapping"]?.table {
            for key in mapping.keys {
                if let target = mapping[key]?.string { remote.pathMapping[key] = target }
            }
        }
        return remote
    }
}
