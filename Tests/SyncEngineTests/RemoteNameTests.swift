import Foundation
import SyncEngine
import Testing

/// The name a remote is kept under names folders of this machine: one derived from a URL gets
/// the same checks as `--name` (issue 26, item 9: `file:///…/sub/..` and `%2e%2e` gave `..`,
/// and the library and bibread's own files went one level up).
@Suite("Remote names")
struct RemoteNameTests {
    @Test(arguments: [
        ("file:///data/papers/sub/..", "papers"),
        ("file:///data/papers/sub/../", "papers"),
        ("http://127.0.0.1:8080/x/%2e%2e/", "127.0.0.1"),
        ("http://127.0.0.1:8080/lab/%2E%2E/group/", "group"),
        ("http://127.0.0.1:8080/lab/./", "lab"),
        ("https://127.0.0.1/.hidden/", "hidden"),
        ("https://127.0.0.1/.../", "127.0.0.1"),
        ("file:///..", "remote"),
        ("http://127.0.0.1/remote.d/", "remote.d"),
    ])
    func aNameFromAURLIsAPlainName(_ url: String, _ expected: String) throws {
        let remote = try Remote(url: url)
        #expect(remote.name == expected)
        #expect(RemoteName.isPlain(remote.name), "\(remote.name)")
        let locations = RemoteLocations(name: remote.name, environment: ["XDG_DATA_HOME": "/x/data", "XDG_CACHE_HOME": "/x/cache"])
        #expect(locations.library.standardizedFileURL.path.hasPrefix("/x/data/bibread/remotes/"), "\(locations.library.path)")
        #expect(locations.cache.standardizedFileURL.path.hasPrefix("/x/cache/bibread/"), "\(locations.cache.path)")
        #expect(locations.library.standardizedFileURL.lastPathComponent == expected)
    }

    @Test(arguments: ["", ".", "..", ".hidden", "a/b", "a\u{0}b", String(repeating: "x", count: 256)])
    func namesThatAreNotPlain(_ name: String) {
        #expect(!RemoteName.isPlain(name))
    }

    @Test(arguments: ["lab", "my-papers", "remote.d", "Nextcloud_2", "Bücher"])
    func plainNames(_ name: String) {
        #expect(RemoteName.isPlain(name))
    }
}
