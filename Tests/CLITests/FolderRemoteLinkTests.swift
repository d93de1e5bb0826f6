import BibreadTestSupport
import Foundation
import Testing

/// A folder remote never reads through a symbolic link, wherever it is on the way: a linked
/// folder (`remote/dirlink -> /etc`) is refused like a linked file, so nothing outside the
/// remote folder reaches the cache or the library (issue 26, item 10).
@Suite("symbolic links in a folder remote")
struct FolderRemoteLinkTests {
    /// A folder outside the remote with a file that must never be copied, and links to it (and
    /// to /etc) planted in the remote's folders; the library links files through them.
    private func plantLinks(in sandbox: SyncSandbox) throws -> Data {
        let outside = sandbox.root.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        let secret = Data("%PDF-1.4 not the remote's: a file outside it\n".utf8)
        try secret.write(to: outside.appendingPathComponent("secret.pdf"))
        try "@misc{outsider, title = {Outside}}\n".write(to: outside.appendingPathComponent("outside.bib"), atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: sandbox.remote.appendingPathComponent("dirlink").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: sandbox.remote.appendingPathComponent("papers/etc").path, withDestinationPath: "/etc")
        try sandbox.appendEntry("@misc{viaLink, title = {Through a linked folder}, file = {:dirlink/secret.pdf:PDF}}")
        try sandbox.appendEntry("@misc{etcLink, title = {Through a link to /etc}, file = {:papers/etc/passwd:PDF}}")
        return secret
    }

    @Test func aLinkedFolderOnTheWayToALinkedFileIsRefused() throws {
        let sandbox = try SyncSandbox()
        let secret = try plantLinks(in: sandbox)
        let sync = try sandbox.bibread(["sync", sandbox.remote.path, "--name", "f", "--all-pdfs"])
        let cached = sandbox.files(under: sandbox.cache("f"))
        #expect(!cached.contains("dirlink/secret.pdf") && !cached.contains("papers/etc/passwd"), "copied from outside the remote: \(cached)")
        let passwd = (try? Data(contentsOf: URL(fileURLWithPath: "/etc/passwd"))) ?? Data()
        for path in cached {
            let data = try Data(contentsOf: sandbox.cache("f").appendingPathComponent(path))
            #expect(data != secret && data != passwd, "\(path) is a copy of a file outside the remote")
        }
        // Each is refused with a message that names the link; the rest of the library syncs.
        #expect(sync.standardError.contains("dirlink is a symbolic link"), "\(sync.standardError)")
        #expect(sync.standardError.contains("papers/etc is a symbolic link"), "\(sync.standardError)")
        #expect(cached.contains("papers/tex-tour.pdf"), "\(cached)\n\(sync.standardError)")
        #expect(sync.standardError.contains("Done: 5 downloaded"), "\(sync.standardError)")
    }

    /// A .bib named in config.toml through a linked folder is refused too; the others sync.
    @Test func aLibraryNamedThroughALinkedFolderIsRefused() throws {
        let sandbox = try SyncSandbox()
        _ = try plantLinks(in: sandbox)
        try sandbox.configure("""
            [[remote]]
            name = "f"
            url = "\(URL(fileURLWithPath: sandbox.remote.path).absoluteString)"
            libraries = ["library.bib", "dirlink/outside.bib"]
            """)
        let sync = try sandbox.bibread(["sync", "f"])
        #expect(sync.standardError.contains("dirlink is a symbolic link"), "\(sync.standardError)")
        #expect(sync.standardError.contains("library.bib: updated"), "\(sync.standardError)")
        let library = sandbox.files(under: sandbox.library("f"))
        #expect(!library.contains { $0.hasSuffix("outside.bib") }, "\(library)")
        let list = try sandbox.bibread(["list", "f"])
        #expect(!list.standardOutput.contains("outsider"), "\(list.standardOutput)")
        #expect(list.standardOutput.split(separator: "\n").count == 27, "\(list.standardOutput)")
    }
}
