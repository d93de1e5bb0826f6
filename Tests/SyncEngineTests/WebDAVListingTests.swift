import BibreadTestSupport
import Foundation
@testable import SyncEngine
import Testing

/// The one-pass `multistatus` scanner against Foundation's XML parser: the same listing from
/// the answers real servers send, and the full parser for what the scanner leaves to it.
@Suite("WebDAV listings")
struct WebDAVListingTests {
    /// Answers in the forms lighttpd, Apache mod_dav and Nextcloud (sabre/dav) send.
    static let answers: [(server: String, root: String, folder: String, xml: String)] = [
        ("lighttpd", "/", "papers", """
        <?xml version="1.0" encoding="utf-8"?>
        <D:multistatus xmlns:D="DAV:" xmlns:ns0="urn:uuid:c2f41010-65b3-11d1-a29f-00aa00c14882/">
        <D:response>
        <D:href>/papers/</D:href>
        <D:propstat>
        <D:prop>
        <D:getcontentlength>36864</D:getcontentlength><D:getetag>"2183210690"</D:getetag><D:getlastmodified ns0:dt="dateTime.rfc1123">Sun, 22 Nov 2026 10:11:45 GMT</D:getlastmodified><D:resourcetype><D:collection/></D:resourcetype></D:prop>
        <D:status>HTTP/1.1 200 OK</D:status>
        </D:propstat>
        </D:response>
        <D:response>
        <D:href>/papers/p0842.pdf</D:href>
        <D:propstat>
        <D:prop>
        <D:getcontentlength>41793</D:getcontentlength><D:getetag>"1160113816"</D:getetag><D:getlastmodified ns0:dt="dateTime.rfc1123">Sun, 22 Nov 2026 10:11:44 GMT</D:getlastmodified><D:resourcetype/></D:prop>
        <D:status>HTTP/1.1 200 OK</D:status>
        </D:propstat>
        </D:response>
        </D:multistatus>
        """),
        ("Apache mod_dav", "/dav/", "Papers", """
        <?xml version="1.0" encoding="utf-8"?>
        <D:multistatus xmlns:D="DAV:" xmlns:ns0="DAV:">
        <D:response xmlns:lp1="DAV:" xmlns:lp2="http://apache.org/dav/props/" xmlns:g0="DAV:">
        <D:href>/dav/Papers/</D:href>
        <D:propstat>
        <D:prop>
        <lp1:resourcetype><D:collection/></lp1:resourcetype>
        <lp1:getlastmodified>Tue, 03 Jan 2023 10:00:00 GMT</lp1:getlastmodified>
        <lp1:getetag>"1000-5f1a"</lp1:getetag>
        </D:prop>
        <D:status>HTTP/1.1 200 OK</D:status>
        </D:propstat>
        <D:propstat>
        <D:prop>
        <g0:getcontentlength/>
        </D:prop>
        <D:status>HTTP/1.1 404 Not Found</D:status>
        </D:propstat>
        </D:response>
        <D:response xmlns:lp1="DAV:" xmlns:lp2="http://apache.org/dav/props/">
        <D:href>/dav/Papers/Knuth%20%26%20Plass%20(1981).pdf</D:href>
        <D:propstat>
        <D:prop>
        <lp1:resourcetype/>
        <lp1:getcontentlength>1234567</lp1:getcontentlength>
        <lp1:getlastmodified>Wed, 04 Jan 2023 11:22:33 GMT</lp1:getlastmodified>
        <lp1:getetag>"12d687-5f1b"</lp1:getetag>
        </D:prop>
        <D:status>HTTP/1.1 200 OK</D:status>
        </D:propstat>
        </D:response>
        </D:multistatus>
        """),
        ("Nextcloud", "/remote.php/dav/files/me/", "Papers", """
        <?xml version="1.0"?>
        <d:multistatus xmlns:d="DAV:" xmlns:s="http://sabredav.org/ns" xmlns:oc="http://owncloud.org/ns" xmlns:nc="http://nextcloud.org/ns"><d:response><d:href>/remote.php/dav/files/me/Papers/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype><d:getetag>&quot;6389f0e1c2b8a&quot;</d:getetag><d:getlastmodified>Fri, 02 Dec 2022 09:08:07 GMT</d:getlastmodified></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat><d:propstat><d:prop><d:getcontentlength/></d:prop><d:status>HTTP/1.1 404 Not Found</d:status></d:propstat></d:response><d:response><d:href>/remote.php/dav/files/me/Papers/Erd%C5%91s%20%26%20R%C3%A9nyi.pdf</d:href><d:propstat><d:prop><d:resourcetype/><d:getcontentlength>204800</d:getcontentlength><d:getetag>&quot;a1b2&amp;c3&quot;</d:getetag><d:getlastmodified>Sat, 03 Dec 2022 10:11:12 GMT</d:getlastmodified></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response><d:response><d:href>http://cloud.example:8080/remote.php/dav/files/me/Papers/&#x4E2D;&#25991;.pdf</d:href><d:propstat><d:prop><d:resourcetype/><d:getcontentlength>
            77
        </d:getcontentlength><d:getlastmodified>Sun, 4 Dec 2022 01:02:03 GMT</d:getlastmodified></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>
        """),
        ("a BOM, a comment before the root, self-closing responses", "/", "", """
        \u{FEFF}<?xml version='1.0' encoding='UTF-8'?>
        <!-- generated -->
        <multistatus xmlns="DAV:"><response/><response><href>/a.pdf</href><propstat><prop><getcontentlength>5</getcontentlength><resourcetype/></prop></propstat></response></multistatus>
        """),
    ]

    @Test("the scanner reads real servers' answers as Foundation's parser does", arguments: answers.indices)
    func scannerAgreesWithFoundation(_ index: Int) throws {
        let answer = Self.answers[index]
        let body = Array(answer.xml.utf8)
        guard case .responses(let scanned) = MultistatusScanner(body).scan() else {
            Issue.record("\(answer.server): the scanner gave up")
            return
        }
        #expect(scanned == (try WebDAVListing.parseWithFoundation(body)), "\(answer.server)")
        let fast = try WebDAVListing.parse(body, rootPath: answer.root, folder: answer.folder)
        let slow = try WebDAVListing.parse(body, rootPath: answer.root, folder: answer.folder, fast: false)
        #expect(fast.map(\.path) == slow.map(\.path))
        #expect(fast.map(\.size) == slow.map(\.size))
        #expect(fast.map(\.version) == slow.map(\.version))
        #expect(fast.map(\.modified) == slow.map(\.modified))
        #expect(!fast.isEmpty)
    }

    @Test("what each server's files are: paths decoded, sizes, versions, dates")
    func listedFiles() throws {
        let apache = try WebDAVListing.parse(Array(Self.answers[1].xml.utf8), rootPath: "/dav/", folder: "Papers")
        #expect(apache.map(\.path) == ["Papers/Knuth & Plass (1981).pdf"])
        #expect(apache.first?.size == 1_234_567)
        #expect(apache.first?.version == "\"12d687-5f1b\"")
        #expect(apache.first?.modified == 1_672_831_353)
        let nextcloud = try WebDAVListing.parse(Array(Self.answers[2].xml.utf8), rootPath: "/remote.php/dav/files/me/", folder: "Papers")
        #expect(nextcloud.map(\.path) == ["Papers/Erdős & Rényi.pdf", "Papers/中文.pdf"])
        #expect(nextcloud.map(\.size) == [204_800, 77])
        #expect(nextcloud.first?.version == "\"a1b2&c3\"")
        // A one-digit day is still a date.
        #expect(nextcloud.last?.modified == 1_670_115_723)
        guard case .responses(let responses) = MultistatusScanner(Array(Self.answers[2].xml.utf8)).scan() else {
            Issue.record("the scanner gave up")
            return
        }
        #expect(responses.map(\.isCollection) == [true, false, false])
    }

    @Test("what the scanner leaves to the full parser", arguments: [
        "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href><![CDATA[/a&b.pdf]]></d:href></d:response></d:multistatus>",
        "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a<!-- split -->b.pdf</d:href></d:response></d:multistatus>",
        "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a.pdf</d:href></d:response></d:multistatus>",
        "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a\r\nb.pdf</d:href></d:response></d:multistatus>",
    ])
    func fallsBackToFoundation(_ xml: String) throws {
        let body = Array(xml.utf8)
        #expect(MultistatusScanner(body).scan() == .needsFullParser)
        // The full parser still reads it.
        let files = try WebDAVListing.parse(body, rootPath: "/", folder: "")
        #expect(files.count == 1)
        #expect(files.first?.path.hasSuffix(".pdf") == true)
    }

    @Test("a broken answer is an error, not a short listing (Foundation's parser lists what came before the break)", arguments: [
        "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a.pdf</d:href></d:response>",
        "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a.pdf</d:response></d:multistatus>",
        "<d:multistatus xmlns:d=\"DAV:\"><d:response><d:href>/a&nbsp;.pdf</d:href></d:response></d:multistatus>",
        "<d:multistatus xmlns:d=\"DAV:\"></d:multistatus><d:multistatus xmlns:d=\"DAV:\"></d:multistatus>",
        "not XML at all",
        "",
    ])
    func brokenAnswers(_ xml: String) {
        let body = Array(xml.utf8)
        guard case .malformed = MultistatusScanner(body).scan() else {
            Issue.record("not seen as malformed: \(xml)")
            return
        }
        #expect(throws: RemoteError.self) { try WebDAVListing.parse(body, rootPath: "/", folder: "") }
    }

    @Test("an answer Foundation's parser refuses is said where, not with a dump of its error's domain and code")
    func whereFoundationsParserStopped() {
        #expect {
            try WebDAVListing.parse(Array("not XML at all".utf8), rootPath: "/", folder: "", fast: false)
        } throws: { error in
            "\(error)" == "cannot read the remote's listing: the PROPFIND answer is not valid XML (at line 1, column 1)"
        }
    }

    @Test("a real lighttpd listing of a folder of 300 files reads the same both ways")
    func realServerListing() throws {
        let root = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Papers & Notes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for number in 1...300 {
            let name = number % 3 == 0 ? "Erdős <\(number)> & co.pdf" : "p\(number).pdf"
            try Data(repeating: UInt8(number % 251), count: number).write(to: folder.appendingPathComponent(name))
        }
        let server = try WebDAVServer.start(root: root)
        defer { server.stop() }
        var request = TransferRequest(url: server.baseURL.absoluteString + "Papers%20%26%20Notes/")
        request.method = "PROPFIND"
        request.headers = ["Depth: 1", "Content-Type: application/xml; charset=utf-8"]
        request.body = WebDAVTransport.propfindBody
        let response = try CurlSession().perform(request)
        #expect(response.status == 207)
        let fast = try WebDAVListing.parse(response.body, rootPath: "/", folder: "Papers & Notes")
        let slow = try WebDAVListing.parse(response.body, rootPath: "/", folder: "Papers & Notes", fast: false)
        guard case .responses = MultistatusScanner(response.body).scan() else {
            Issue.record("the scanner gave up on lighttpd's answer")
            return
        }
        #expect(fast.count == 300)
        #expect(fast.map(\.path) == slow.map(\.path))
        #expect(fast.map(\.size) == slow.map(\.size))
        #expect(fast.map(\.version) == slow.map(\.version))
        #expect(fast.contains { $0.path == "Papers & Notes/Erdős <3> & co.pdf" && $0.size == 3 })
    }

    @Test("HTTP dates: the fixed form, a one-digit day, and what is not a date")
    func httpDates() {
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun, 6 Nov 1994 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 XYZ") == 784_111_777)
        #expect(HTTPDate.parse("Sun, 06 Foo 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("Sun, 0x Nov 1994 08:49:37 GMT") == nil)
        #expect(HTTPDate.parse("yesterday") == nil)
        #expect(HTTPDate.parse("") == nil)
    }
}
