import Foundation
import SyncEngine
import Testing
import BibreadTestSupport

@Suite("libcurl through CCurl")
struct CurlTransferTests {
    @Test func versionNamesLibcurl() throws {
        #expect(try CurlTransfer.version.hasPrefix("libcurl/"))
    }

    @Test func fetchesAFileURL() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("data.bin")
        let payload = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(payload).write(to: file)
        let fetched = try CurlTransfer().fetch(file.absoluteString)
        #expect(fetched == payload)
    }

    @Test func missingFileIsATypedError() throws {
        #expect(throws: CurlError.self) { try CurlTransfer().fetch("file:///nonexistent/bibread/test") }
    }
}
