import BibreadTestSupport
import Foundation
import FullText
import Testing

@Suite("where the index lives")
struct DefaultLocationTests {
    @Test func underXDGCacheHome() {
        let url = FullTextIndex.defaultURL(environment: ["XDG_CACHE_HOME": "/var/cache/me", "HOME": "/home/me"])
        #expect(url.path == "/var/cache/me/bibread/fulltext.sqlite")
    }

    @Test("a relative or empty XDG_CACHE_HOME is ignored", arguments: [["XDG_CACHE_HOME": "relative/cache"], ["XDG_CACHE_HOME": ""], [:]])
    func fallsBackToHome(extra: [String: String]) {
        let url = FullTextIndex.defaultURL(environment: extra.merging(["HOME": "/home/me"]) { $1 })
        #expect(url.path == "/home/me/.cache/bibread/fulltext.sqlite")
    }

    /// Two processes opening the index for the first time at once (`bibread index` and the
    /// reader) both get it, not "table … already exists" from migrating it twice.
    @Test func anIndexOpenedAtOnceForTheFirstTimeOpensEverywhere() throws {
        let failures = try ConcurrentOpening.failures { folder in
            _ = try FullTextIndex(url: folder.appendingPathComponent("fulltext.sqlite"))
        }
        #expect(failures.isEmpty, "\(failures.count) openings failed: \(Set(failures))")
    }

    @Test func anIndexOpensAgainWithItsContent() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bibread-fulltext-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("a/b/fulltext.sqlite")
        let path = folder.appendingPathComponent("paper.pdf").path
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: samplePDF("tex-tour.pdf"), toPath: path)
        do {
            let index = try FullTextIndex(url: url)
            #expect(try index.update(paths: [path]).read == 1)
        }
        let reopened = try FullTextIndex(url: url)
        #expect(try reopened.statistics() == (1, 5))
        #expect(try reopened.update(paths: [path]).unchanged == 1)
    }
}
