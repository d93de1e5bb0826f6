import BibreadValues
import Glibc

extension Launcher {
    /// The path of the program `name`: `name` itself when it contains a `/`, else the first
    /// executable regular file called `name` in a folder of `path` (a `PATH` value). Empty and
    /// relative `PATH` entries are skipped (they would mean the current folder).
    public static func findExecutable(_ name: String, path: String) -> String? {
        guard !name.isEmpty, !name.utf8.contains(0) else { return nil }
        if name.contains("/") { return isExecutableFile(name) ? name : nil }
        for folder in path.split(separator: ":") where folder.hasPrefix("/") {
            let candidate = folder.hasSuffix("/") ? "\(folder)\(name)" : "\(folder)/\(name)"
            if isExecutableFile(candidate) { return candidate }
        }
        return nil
    }

    /// The program to run for `entry`: the program named by its ``HandlerEntry/programVariable``
    /// when that variable is set and names an installed program, else its `argv[0]`, looked up
    /// in `path` (a `~/` at its start is `$HOME/`); nil when neither is installed (or for an
    /// OSC 52 entry, which runs none).
    ///
    /// Only the variable's first word is taken, never parsed by a shell: `BROWSER` may be a
    /// `:`-separated list (the first item is used) and `PAGER="less -R"` gives `less`; a value
    /// with `%s` in its first word is ignored.
    public static func resolveProgram(of entry: HandlerEntry, path: String, environment: [String: String]) -> String? {
        guard entry.style != .osc52, let program = entry.argv.first else { return nil }
        if let variable = entry.programVariable, let value = environment[variable],
           let word = firstWord(of: value),
           let found = findExecutable(expandingHome(in: word, environment: environment), path: path)
        {
            return found
        }
        return findExecutable(expandingHome(in: program, environment: environment), path: path)
    }

    /// `~/x` as `$HOME/x` (a program written in config as `~/bin/viewer`).
    static func expandingHome(in program: String, environment: [String: String]) -> String {
        guard program.hasPrefix("~/"), let home = environment["HOME"], home.hasPrefix("/") else { return program }
        return (home.hasSuffix("/") ? String(home.dropLast()) : home) + program.dropFirst()
    }

    /// The first word of the first `:`-separated item.
    static func firstWord(of value: String) -> String? {
        let item = value.split(separator: ":", omittingEmptySubsequences: true).first ?? ""
        guard let word = item.split(whereSeparator: { $0 == " " || $0 == "\t" }).first, !word.contains("%") else {
            return nil
        }
        return String(word)
    }

    /// An existing regular file (after symbolic links) that this user may execute.
    static func isExecutableFile(_ path: String) -> Bool {
        var information = stat()
        guard stat(path, &information) == 0, information.st_mode & S_IFMT == S_IFREG else { return false }
        return access(path, X_OK) == 0
    }
}
