import Foundation

/// Which library a command or the reader opens.
public enum LibraryPaths {
    /// The library the reader opens: the files given, else the config's default library, else
    /// the library opened last (when its files are still there); empty when there is none.
    public static func current(given: [String], config: Config? = nil, sessions: SessionStore? = nil) -> [String] {
        let directories = Directories()
        var paths = given.map(absolutePath)
        if paths.isEmpty { paths = (config ?? Config.load(from: directories.config)).libraries }
        let store = sessions ?? SessionStore(directory: directories.state)
        if paths.isEmpty, let last = store.lastLibrary(), last.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) {
            paths = last
        }
        return paths
    }

    static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return (path as NSString).standardizingPath }
        let joined = (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
        return (joined as NSString).standardizingPath
    }
}
