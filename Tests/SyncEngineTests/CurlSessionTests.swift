import BibreadTestSupport
import Foundation
import SyncEngine
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// CurlSession against real servers on 127.0.0.1: `file://` URLs, a small Python HTTP server
/// started once for the whole suite, and an sftp port nobody listens on.
@Suite("CurlSession: requests and downloads", .onOwnThreads)
struct CurlSessionTests {
    let session: CurlSession

    init() throws {
        session = try CurlSession()
    }

    // MARK: file://

    @Test func downloadsAFileURLAndResumesFromAnOffset() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source.pdf")
        let content = payload(200_000, seed: 5)
        try Data(content).write(to: source)
        let destination = folder.appendingPathComponent("copy.pdf")
        let session = session

        let whole = try await onThread {
            session.download([DownloadJob(request: TransferRequest(url: source.absoluteString), destination: destination)],
                             parallel: 1, progress: { _, _, _ in }, isCancelled: { false })
        }
        #expect(whole == [.completed(status: 0, headers: whole.completedHeaders, bytesOnDisk: 200_000)])
        #expect(try Array(Data(contentsOf: destination)) == content)

        // A partial copy, with stray bytes after the resume point that must go.
        try Data(content.prefix(50_000) + Array(repeating: 0x78, count: 10_000)).write(to: destination)
        var request = TransferRequest(url: source.absoluteString)
        request.resumeFrom = 50_000
        let (resumed, reports) = try await onThread { [request] in
            var reports: [Report] = []
            let outcomes = session.download([DownloadJob(request: request, destination: destination)], parallel: 1,
                                            progress: { reports.append(Report(job: $0, bytes: $1, expected: $2)) },
                                            isCancelled: { false })
            return (outcomes, reports)
        }
        #expect(resumed == [.completed(status: 0, headers: resumed.completedHeaders, bytesOnDisk: 200_000)])
        #expect(try Array(Data(contentsOf: destination)) == content)
        #expect(reports.last == Report(job: 0, bytes: 200_000, expected: 200_000))
    }

    @Test func performsAHeadOnAFileURL() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("library.bib")
        try Data(payload(1234, seed: 1)).write(to: source)
        let response = try session.perform(TransferRequest(url: source.absoluteString, method: "HEAD"))
        #expect(response.status == 0)
        #expect(response.body.isEmpty)
        #expect(response.headers["content-length"] == "1234")
        #expect(response.modificationDate != nil)
    }

    @Test func missingFileURLIsACurlFailure() {
        #expect {
            try session.perform(TransferRequest(url: "file:///nonexistent/bibread/curl-session"))
        } throws: { error in
            guard case .curl(let code, _) = error as? TransferFailure else { return false }
            return code == 37
        }
    }

    // MARK: perform

    @Test func performsGetWithHeaders() async throws {
        let server = try await LocalHTTPServer.shared.value
        let response = try session.perform(TransferRequest(url: server.url("/echo?x=1"), headers: ["X-Test: one", "Accept: application/json"]))
        #expect(response.status == 200)
        #expect(response.headers["x-echo-method"] == "GET")
        #expect(response.headers["content-type"] == "application/json")
        let echo = try Echo(response.body)
        #expect(echo.method == "GET")
        #expect(echo.path == "/echo?x=1")
        #expect(echo.headers["x-test"] == "one")
        #expect(echo.headers["accept"] == "application/json")
        #expect(echo.headers["authorization"] == nil)
    }

    @Test func performsHeadWithoutABody() async throws {
        let server = try await LocalHTTPServer.shared.value
        let response = try session.perform(TransferRequest(url: server.url("/data/5000?seed=2"), method: "HEAD"))
        #expect(response.status == 200)
        #expect(response.body.isEmpty)
        #expect(response.headers["content-length"] == "5000")
        #expect(response.headers["etag"] == "\"5000-2\"")
        #expect(response.modificationDate == Date(timeIntervalSince1970: 1_445_412_480))
    }

    @Test func performsPostWithABinaryBody() async throws {
        let server = try await LocalHTTPServer.shared.value
        let body: [UInt8] = [0, 1, 2, 0xFF, 0, 10, 13] + Array("{\"query\":\"x\"}".utf8)
        let response = try session.perform(TransferRequest(url: server.url("/echo"), method: "POST",
                                                          headers: ["Content-Type: application/json"], body: body))
        let echo = try Echo(response.body)
        #expect(echo.method == "POST")
        #expect(echo.body == body)
        #expect(echo.headers["content-type"] == "application/json")
        #expect(echo.headers["expect"] == nil)

        let empty = try Echo(session.perform(TransferRequest(url: server.url("/echo"), method: "POST")).body)
        #expect(empty.method == "POST")
        #expect(empty.headers["content-length"] == "0")
    }

    @Test func performsACustomMethodWithABody() async throws {
        let server = try await LocalHTTPServer.shared.value
        let xml = Array("<?xml version=\"1.0\"?><propfind xmlns=\"DAV:\"><allprop/></propfind>".utf8)
        let response = try session.perform(TransferRequest(url: server.url("/echo/dir/"), method: "PROPFIND",
                                                          headers: ["Depth: 1", "Content-Type: application/xml"], body: xml))
        let echo = try Echo(response.body)
        #expect(echo.method == "PROPFIND")
        #expect(echo.headers["depth"] == "1")
        #expect(echo.body == xml)

        let delete = try Echo(session.perform(TransferRequest(url: server.url("/echo/file"), method: "DELETE")).body)
        #expect(delete.method == "DELETE")
        #expect(delete.body.isEmpty)
    }

    @Test func resumeOffsetIsARangeHeaderWithAnyMethod() async throws {
        let server = try await LocalHTTPServer.shared.value
        var request = TransferRequest(url: server.url("/echo"), method: "POST", headers: ["Dropbox-API-Arg: {}"])
        request.resumeFrom = 10
        let echo = try Echo(session.perform(request).body)
        #expect(echo.headers["range"] == "bytes=10-")
        #expect(echo.headers["content-range"] == nil)
        request.headers.append("Range: bytes=10-19")
        #expect(try Echo(session.perform(request).body).headers["range"] == "bytes=10-19")
    }

    @Test func sendsBearerAndBasicCredentials() async throws {
        let server = try await LocalHTTPServer.shared.value
        let bearer = try Echo(session.perform(TransferRequest(url: server.url("/echo"), credentials: .bearer("token-123"))).body)
        #expect(bearer.headers["authorization"] == "Bearer token-123")
        let basic = try Echo(session.perform(TransferRequest(url: server.url("/echo"), credentials: .basic(user: "ann", password: "s3cret"))).body)
        #expect(basic.headers["authorization"] == "Basic " + Data("ann:s3cret".utf8).base64EncodedString())
    }

    @Test func returnsHTTPErrorsInsteadOfThrowing() async throws {
        let server = try await LocalHTTPServer.shared.value
        let response = try session.perform(TransferRequest(url: server.url("/status/404")))
        #expect(response.status == 404)
        #expect(String(decoding: response.body, as: UTF8.self) == "error body 404\n")
    }

    @Test func followsRedirects() async throws {
        let server = try await LocalHTTPServer.shared.value
        let response = try session.perform(TransferRequest(url: server.url("/redirect/data/300?seed=4")))
        #expect(response.status == 200)
        #expect(response.body == payload(300, seed: 4))
        #expect(response.headers["etag"] == "\"300-4\"")
        #expect(response.headers["location"] == nil)
    }

    @Test func performsFromManyThreadsAtOnce() async throws {
        let server = try await LocalHTTPServer.shared.value
        let session = session
        let bodies = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for seed in 0..<8 {
                let url = server.url("/data/\(10_000 + seed)?seed=\(seed)")
                group.addTask { try await onThread { (seed, try session.perform(TransferRequest(url: url)).body) } }
            }
            var bodies: [Int: [UInt8]] = [:]
            for try await (seed, body) in group { bodies[seed] = body }
            return bodies
        }
        for seed in 0..<8 { #expect(bodies[seed] == payload(10_000 + seed, seed: seed)) }
    }

    @Test func refusesOtherProtocols() {
        for url in ["ftp://127.0.0.1:1/file", "scp://127.0.0.1:1/file", "dict://127.0.0.1:1/x"] {
            #expect {
                try session.perform(TransferRequest(url: url))
            } throws: { error in
                guard case .curl(let code, _) = error as? TransferFailure else { return false }
                return code == 1
            }
        }
    }

    @Test func refusesHeadersWithLineBreaks() {
        #expect {
            try session.perform(TransferRequest(url: "http://127.0.0.1:1/", headers: ["X-A: b\r\nX-Injected: c"]))
        } throws: { error in
            guard case .curl(let code, _) = error as? TransferFailure else { return false }
            return code == 43
        }
    }

    @Test func messagesLeaveOutUserinfo() throws {
        let request = TransferRequest(url: "http://ann:hunter22@127.0.0.1:1/library.bib")
        #expect(request.displayURL == "http://127.0.0.1:1/library.bib")
        do {
            _ = try session.perform(request)
            Issue.record("nothing listens on port 1")
        } catch let failure as TransferFailure {
            #expect(failure.isTransient)
            #expect(!failure.description.contains("hunter22"))
            #expect(!failure.description.contains("ann:"))
        }
    }

    @Test func stallTimeoutEndsAPerform() async throws {
        let server = try await LocalHTTPServer.shared.value
        var request = TransferRequest(url: server.url("/stall?seconds=20"))
        request.stallTimeout = 1
        let session = session
        let result = try await onThread { [request] in Result { try session.perform(request) } }
        guard case .failure(let failure as TransferFailure) = result else {
            Issue.record("expected a failure, got \(result)")
            return
        }
        guard case .curl(28, _) = failure else {
            Issue.record("expected curl error 28, got \(failure)")
            return
        }
        #expect(failure.isTransient)
    }

    // MARK: HTTP downloads

    @Test func resumesWithARangeAndAppends() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let content = payload(5000, seed: 3)
        let destination = folder.appendingPathComponent("paper.pdf")
        try Data(content.prefix(1000)).write(to: destination)
        var request = TransferRequest(url: server.url("/data/5000?seed=3"))
        request.resumeFrom = 1000
        let session = session
        let (outcomes, reports) = try await onThread { [request] in
            var reports: [Report] = []
            let outcomes = session.download([DownloadJob(request: request, destination: destination)], parallel: 1,
                                            progress: { reports.append(Report(job: $0, bytes: $1, expected: $2)) },
                                            isCancelled: { false })
            return (outcomes, reports)
        }
        guard case .completed(206, let headers, 5000) = outcomes.first else {
            Issue.record("expected a completed 206, got \(outcomes)")
            return
        }
        #expect(headers["content-range"] == "bytes 1000-4999/5000")
        #expect(headers["etag"] == "\"5000-3\"")
        #expect(try Array(Data(contentsOf: destination)) == content)
        #expect(reports.last == Report(job: 0, bytes: 5000, expected: 5000))
        #expect(reports.allSatisfy { $0.job == 0 && $0.bytes >= 1000 })
    }

    @Test func rewritesTheFileWhenTheServerIgnoresTheRange() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("paper.pdf")
        try Data(repeating: 0x78, count: 1000).write(to: destination)
        var request = TransferRequest(url: server.url("/norange/5000?seed=6"))
        request.resumeFrom = 1000
        let outcomes = try await download([DownloadJob(request: request, destination: destination)])
        #expect(outcomes == [.completed(status: 200, headers: outcomes.completedHeaders, bytesOnDisk: 5000)])
        #expect(try Array(Data(contentsOf: destination)) == payload(5000, seed: 6))
    }

    @Test func refusesAResumeAtTheWrongOffset() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("paper.pdf")
        let start = payload(1000, seed: 2)
        try Data(start).write(to: destination)
        var request = TransferRequest(url: server.url("/badrange/5000?seed=2"))
        request.resumeFrom = 1000
        let outcomes = try await download([DownloadJob(request: request, destination: destination)])
        guard case .failed(.curl(36, _)) = outcomes.first else {
            Issue.record("expected curl error 36, got \(outcomes)")
            return
        }
        #expect(try Array(Data(contentsOf: destination)) == start)
    }

    @Test func aResumeOfAWholeFileIsComplete() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("paper.pdf")
        let content = payload(5000, seed: 8)
        try Data(content).write(to: destination)
        var request = TransferRequest(url: server.url("/data/5000?seed=8"))
        request.resumeFrom = 5000
        let outcomes = try await download([DownloadJob(request: request, destination: destination)])
        #expect(outcomes == [.completed(status: 416, headers: outcomes.completedHeaders, bytesOnDisk: 5000)])
        #expect(try Array(Data(contentsOf: destination)) == content)
    }

    @Test func httpErrorsNeverReachTheFile() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = folder.appendingPathComponent("kept.bib")
        try Data("@misc{kept}\n".utf8).write(to: kept)
        let partial = folder.appendingPathComponent("partial.pdf")
        try Data(payload(1000, seed: 0)).write(to: partial)
        let missing = folder.appendingPathComponent("new.pdf")
        var resume = TransferRequest(url: server.url("/status/503"))
        resume.resumeFrom = 1000

        let outcomes = try await download([
            DownloadJob(request: TransferRequest(url: server.url("/status/404")), destination: kept),
            DownloadJob(request: TransferRequest(url: server.url("/status/503")), destination: missing),
            DownloadJob(request: resume, destination: partial),
        ], parallel: 3)

        #expect(outcomes == [
            .failed(.http(status: 404, body: "error body 404\n")),
            .failed(.http(status: 503, body: "error body 503\n")),
            .failed(.http(status: 503, body: "error body 503\n")),
        ])
        #expect(outcomes.map(\.isTransientFailure) == [false, true, true])
        #expect(try String(contentsOf: kept, encoding: .utf8) == "@misc{kept}\n")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
        #expect(try Array(Data(contentsOf: partial)) == payload(1000, seed: 0))
    }

    @Test func notModifiedLeavesTheFileAlone() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("library.bib")
        try Data("@misc{cached}\n".utf8).write(to: destination)
        let request = TransferRequest(url: server.url("/status/304"), headers: ["If-None-Match: \"abc\""])
        let outcomes = try await download([DownloadJob(request: request, destination: destination)])
        #expect(outcomes == [.completed(status: 304, headers: outcomes.completedHeaders, bytesOnDisk: 14)])
        #expect(try String(contentsOf: destination, encoding: .utf8) == "@misc{cached}\n")
    }

    @Test func aCutOffBodyIsAPartialFile() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("paper.pdf")
        let outcomes = try await download([DownloadJob(request: TransferRequest(url: server.url("/truncate")), destination: destination)])
        guard case .failed(let failure) = outcomes.first, case .curl(18, _) = failure else {
            Issue.record("expected curl error 18, got \(outcomes)")
            return
        }
        #expect(failure.isTransient)
        // What arrived stays, to resume from.
        #expect(try Array(Data(contentsOf: destination)) == payload(500, seed: 0))
    }

    @Test func aStalledServerTimesOut() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var request = TransferRequest(url: server.url("/stall?seconds=20"))
        request.stallTimeout = 1
        let outcomes = try await download([DownloadJob(request: request, destination: folder.appendingPathComponent("x"))])
        guard case .failed(let failure) = outcomes.first, case .curl(28, _) = failure else {
            Issue.record("expected curl error 28, got \(outcomes)")
            return
        }
        #expect(failure.isTransient)
    }

    @Test func cancellationStopsEveryJob() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // /slow never ends: the call returning at all shows the cancellation worked.
        let jobs = (0..<3).map {
            DownloadJob(request: TransferRequest(url: server.url("/slow")), destination: folder.appendingPathComponent("slow\($0)"))
        }
        let session = session
        let (outcomes, most) = try await onThread {
            var most: Int64 = 0
            let outcomes = session.download(jobs, parallel: 2, progress: { _, bytes, _ in most = max(most, bytes) },
                                            isCancelled: { most >= 8192 })
            return (outcomes, most)
        }
        #expect(outcomes == [.cancelled, .cancelled, .cancelled])
        #expect(most >= 8192)
        // What arrived before the cancellation stays on disk.
        let kept = try FileManager.default.attributesOfItem(atPath: jobs[0].destination.path)[.size] as? Int
        #expect((kept ?? 0) > 0)
    }

    @Test func cancelledBeforeStartingDoesNothing() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("never")
        let session = session
        let outcomes = try await onThread {
            session.download([DownloadJob(request: TransferRequest(url: "http://127.0.0.1:1/"), destination: destination)],
                             parallel: 1, progress: { _, _, _ in }, isCancelled: { true })
        }
        #expect(outcomes == [.cancelled])
        #expect(!FileManager.default.fileExists(atPath: destination.path))
    }

    @Test func downloadsTwentyFilesFourAtATime() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sizes = (0..<20).map { 1000 + $0 * 7919 }
        let jobs = server.dataJobs(sizes, into: folder)
        let session = session
        let (outcomes, finals) = try await onThread {
            var finals: [Int: Int64] = [:]
            let outcomes = session.download(jobs, parallel: 4, progress: { job, bytes, _ in finals[job] = bytes },
                                            isCancelled: { false })
            return (outcomes, finals)
        }
        for (seed, size) in sizes.enumerated() {
            #expect(outcomes[seed] == .completed(status: 200, headers: outcomes[seed].headers, bytesOnDisk: Int64(size)))
            #expect(try Array(Data(contentsOf: jobs[seed].destination)) == payload(size, seed: seed))
            #expect(finals[seed] == Int64(size))
        }
    }

    @Test func eachOutcomeIsHandedOverAsSoonAsItIsKnown() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sizes = (0..<12).map { 2000 + $0 * 4999 }
        // Job 5 cannot write its file: its outcome is a failure, handed over like the others.
        let jobs = server.dataJobs(sizes, into: folder) { $0 == 5 ? "no/such/folder/file5.pdf" : "file\($0).pdf" }
        let last = jobs[jobs.count - 1].destination
        let session = session
        let (outcomes, handed, lastExistedAtFirst) = try await onThread {
            var handed: [(Int, DownloadOutcome)] = []
            var lastExistedAtFirst: Bool?
            let outcomes = session.download(jobs, parallel: 3, progress: { _, _, _ in }, isCancelled: { false },
                                            finished: { index, outcome in
                                                if lastExistedAtFirst == nil {
                                                    lastExistedAtFirst = FileManager.default.fileExists(atPath: last.path)
                                                }
                                                handed.append((index, outcome))
                                            })
            return (outcomes, handed, lastExistedAtFirst)
        }
        #expect(handed.map(\.0).sorted() == Array(jobs.indices))
        for (index, outcome) in handed { #expect(outcome == outcomes[index]) }
        #expect(lastExistedAtFirst == false, "the first outcome came after the last job had started")
        guard case .failed(.write) = outcomes[5] else {
            Issue.record("job 5: \(outcomes[5])")
            return
        }
        #expect(outcomes.indices.filter { $0 != 5 }.allSatisfy { outcomes[$0].bytesOnDisk == Int64(sizes[$0]) })
    }

    @Test func writeErrorsAreReported() async throws {
        let server = try await LocalHTTPServer.shared.value
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("source.pdf")
        try Data(payload(100_000, seed: 1)).write(to: source)
        let nowhere = folder.appendingPathComponent("missing/folder/paper.pdf")
        let full = URL(fileURLWithPath: "/dev/full")
        let outcomes = try await download([
            DownloadJob(request: TransferRequest(url: server.url("/data/100000")), destination: full),
            DownloadJob(request: TransferRequest(url: source.absoluteString), destination: full),
            DownloadJob(request: TransferRequest(url: server.url("/data/100")), destination: nowhere),
        ], parallel: 3)
        #expect(outcomes.count == 3)
        for (index, outcome) in outcomes.enumerated() {
            guard case .failed(.write(let path, let reason)) = outcome else {
                Issue.record("job \(index): expected a write failure, got \(outcome)")
                continue
            }
            #expect(path == (index < 2 ? "/dev/full" : nowhere.path))
            #expect(reason == (index < 2 ? "No space left on device" : "No such file or directory"))
        }
        #expect(outcomes.allSatisfy { !$0.isTransientFailure })
    }

    @Test func resumingAFileShorterThanTheOffsetFails() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("short.pdf")
        try Data(count: 10).write(to: destination)
        var request = TransferRequest(url: "http://127.0.0.1:1/x")
        request.resumeFrom = 100
        let outcomes = try await download([DownloadJob(request: request, destination: destination)])
        guard case .failed(.write(destination.path, _)) = outcomes.first else {
            Issue.record("expected a write failure, got \(outcomes)")
            return
        }
    }

    // MARK: sftp

    @Test func sftpIsConfigured() async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        var request = TransferRequest(url: "sftp://127.0.0.1:1/x")
        request.credentials = .ssh(user: "ann", privateKey: nil, publicKey: nil, passphrase: nil, knownHosts: nil)
        let outcomes = try await download([DownloadJob(request: request, destination: folder.appendingPathComponent("x"))])
        guard case .failed(.curl(let code, _)) = outcomes.first else {
            Issue.record("expected a curl failure, got \(outcomes)")
            return
        }
        #expect(code == 7)
        #expect(throws: TransferFailure.self) { try session.perform(request) }
    }

    @Test(.enabled(if: LocalSSHServer.isAvailable))
    func sftpAgainstALocalSSHServer() async throws {
        try await LocalSSHServer.run { server in
            let session = session
            let remote = try Fixtures.temporaryDirectory()
            let local = try Fixtures.temporaryDirectory()
            defer {
                try? FileManager.default.removeItem(at: remote)
                try? FileManager.default.removeItem(at: local)
            }
            let content = payload(3000, seed: 9)
            try Data(content).write(to: remote.appendingPathComponent("paper one.pdf"))
            try Data("@misc{a}\n".utf8).write(to: remote.appendingPathComponent("a.bib"))
            try FileManager.default.createDirectory(at: remote.appendingPathComponent("sub"), withIntermediateDirectories: false)
            let modified = Date(timeIntervalSince1970: 1_600_000_000)
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: remote.appendingPathComponent("a.bib").path)
            let base = "sftp://127.0.0.1:\(server.port)\(remote.path)/"

            // A folder URL ending in "/" lists the folder like `ls -l`, with "." and "..".
            let listing = try session.perform(TransferRequest(url: base, credentials: server.credentials))
            #expect(listing.status == 0)
            let lines = String(decoding: listing.body, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(lines.contains { $0.hasPrefix("-rw") && $0.hasSuffix(" paper one.pdf") && $0.contains(" 3000 ") })
            #expect(lines.contains { $0.hasPrefix("d") && $0.hasSuffix(" sub") })
            #expect(lines.contains { $0.hasSuffix(" a.bib") && $0.contains("2020") })

            // HEAD: the modification time, no body.
            var head = TransferRequest(url: base + "a.bib", method: "HEAD", credentials: server.credentials)
            let headResponse = try session.perform(head)
            #expect(headResponse.body.isEmpty)
            #expect(headResponse.modificationDate == modified)

            // A download, then a resume of a partial copy.
            let destination = local.appendingPathComponent("paper.pdf")
            let whole = try await onThread {
                session.download([DownloadJob(request: TransferRequest(url: base + "paper%20one.pdf", credentials: server.credentials), destination: destination)],
                                 parallel: 1, progress: { _, _, _ in }, isCancelled: { false })
            }
            #expect(whole == [.completed(status: 0, headers: whole.completedHeaders, bytesOnDisk: 3000)])
            #expect(try Array(Data(contentsOf: destination)) == content)
            try Data(content.prefix(1000)).write(to: destination)
            var resume = TransferRequest(url: base + "paper%20one.pdf", credentials: server.credentials)
            resume.resumeFrom = 1000
            let resumed = try await onThread { [resume] in
                session.download([DownloadJob(request: resume, destination: destination)],
                                 parallel: 1, progress: { _, _, _ in }, isCancelled: { false })
            }
            #expect(resumed == [.completed(status: 0, headers: resumed.completedHeaders, bytesOnDisk: 3000)])
            #expect(try Array(Data(contentsOf: destination)) == content)

            // A missing remote file fails without creating the destination.
            let missing = local.appendingPathComponent("missing.pdf")
            let notFound = try await onThread {
                session.download([DownloadJob(request: TransferRequest(url: base + "nothere.pdf", credentials: server.credentials), destination: missing)],
                                 parallel: 1, progress: { _, _, _ in }, isCancelled: { false })
            }
            guard case .failed(.curl(78, _)) = notFound.first else {
                Issue.record("expected curl error 78, got \(notFound)")
                return
            }
            #expect(!FileManager.default.fileExists(atPath: missing.path))

            // A key with a passphrase; a wrong passphrase is a denied login (the connection the
            // first key opened is not reused for other credentials).
            head.credentials = server.credentials(key: server.lockedKey, passphrase: "wrong phrase")
            #expect { try session.perform(head) } throws: { error in
                guard let failure = error as? TransferFailure, case .curl(67, _) = failure else { return false }
                return !failure.description.contains("wrong phrase")
            }
            head.credentials = server.credentials(key: server.lockedKey, passphrase: "pass phrase")
            #expect(try session.perform(head).modificationDate == modified)

            // A host key that is not the known one is refused.
            head.credentials = server.credentials(knownHosts: server.wrongKnownHosts)
            #expect { try session.perform(head) } throws: { error in
                guard case .curl(60, _) = error as? TransferFailure else { return false }
                return true
            }
        }
    }

    // MARK: Failures

    @Test func transientFailures() {
        #expect(TransferFailure.curl(code: 28, message: "").isTransient)
        #expect(TransferFailure.curl(code: 7, message: "").isTransient)
        #expect(TransferFailure.curl(code: 56, message: "").isTransient)
        #expect(!TransferFailure.curl(code: 67, message: "").isTransient)
        #expect(!TransferFailure.curl(code: 60, message: "").isTransient)
        for status in [429, 500, 502, 503, 504] { #expect(TransferFailure.http(status: status, body: "").isTransient) }
        for status in [400, 401, 403, 404, 416] { #expect(!TransferFailure.http(status: status, body: "").isTransient) }
        #expect(!TransferFailure.write(path: "/x", reason: "No space left on device").isTransient)
        #expect(!TransferFailure.cancelled.isTransient)
        #expect(TransferFailure.http(status: 503, body: "busy\nretry later").description == "HTTP 503: busy")
    }

    // MARK: Helpers

    private func download(_ jobs: [DownloadJob], parallel: Int = 1) async throws -> [DownloadOutcome] {
        let session = session
        return try await onThread {
            session.download(jobs, parallel: parallel, progress: { _, _, _ in }, isCancelled: { false })
        }
    }
}

/// One progress report.
private struct Report: Equatable, Sendable {
    let job: Int
    let bytes: Int64
    let expected: Int64?
}

/// What `/echo` saw.
private struct Echo: Decodable {
    let method: String
    let path: String
    let headers: [String: String]
    let body: [UInt8]

    private enum CodingKeys: String, CodingKey { case method, path, headers, body }

    init(_ json: [UInt8]) throws {
        self = try JSONDecoder().decode(Echo.self, from: Data(json))
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        path = try container.decode(String.self, forKey: .path)
        headers = try container.decode([String: String].self, forKey: .headers)
        body = Array(Data(base64Encoded: try container.decode(String.self, forKey: .body)) ?? Data())
    }
}

extension DownloadOutcome {
    /// The headers of a completed download (to compare outcomes whose headers do not matter).
    fileprivate var headers: [String: String] {
        if case .completed(_, let headers, _) = self { return headers }
        return [:]
    }

    /// The length of a completed download's file; nil for any other outcome.
    fileprivate var bytesOnDisk: Int64? {
        if case .completed(_, _, let bytes) = self { return bytes }
        return nil
    }

    fileprivate var isTransientFailure: Bool {
        if case .failed(let failure) = self { return failure.isTransient }
        return false
    }
}

extension [DownloadOutcome] {
    fileprivate var completedHeaders: [String: String] { first?.headers ?? [:] }
}

/// The bytes the test server sends for `/data/<size>?seed=<seed>`.
private func payload(_ size: Int, seed: Int) -> [UInt8] {
    (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed &* 7) }
}

/// Runs blocking work (a download, a stalled request) on its own thread, not on one of the few
/// threads Swift Testing runs tests on.
private func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try work() }) }.start()
    }
}

/// A Python HTTP server on 127.0.0.1, started once for all tests; it exits when the test
/// process does.
///
/// Endpoints: `/data/<size>?seed=<n>` (bytes with Range support, ETag, Last-Modified),
/// `/norange/…` (ignores Range), `/badrange/…` (answers 206 from byte 0), `/status/<code>`,
/// `/echo` (the request as JSON), `/redirect/<path>`, `/truncate` (announces 1000 bytes, sends
/// 500), `/stall?seconds=<n>` (sends nothing), `/slow` (1 KiB every 20 ms, forever).
private final class LocalHTTPServer: Sendable {
    let port: Int
    /// Never stopped: `shared` keeps the server for the whole test process.
    private let process: ServerProcess

    static let shared = Task<LocalHTTPServer, any Error> { try await LocalHTTPServer.start() }

    private init(port: Int, process: ServerProcess) {
        self.port = port
        self.process = process
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(port)\(path)" }

    /// One download per size, of `/data/SIZE?seed=N` (the N-th size), into `folder/name(N)`.
    func dataJobs(_ sizes: [Int], into folder: URL, name: (Int) -> String = { "file\($0).pdf" }) -> [DownloadJob] {
        sizes.enumerated().map { seed, size in
            DownloadJob(request: TransferRequest(url: url("/data/\(size)?seed=\(seed)")),
                        destination: folder.appendingPathComponent(name(seed)))
        }
    }

    private static func start() async throws -> LocalHTTPServer {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("server.py")
        try Data(serverScript.utf8).write(to: script)
        let portFile = folder.appendingPathComponent("port")
        let errorFile = folder.appendingPathComponent("errors")
        let process = try ServerProcess.spawn("python3", [script.path, "\(getpid())"], logPath: errorFile.path, outputPath: portFile.path)
        for _ in 0..<500 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8),
               let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                return LocalHTTPServer(port: port, process: process)
            }
            if process.hasExited {
                let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
                throw ServerFailure("the test server exited: \(errors)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.stop()
        throw ServerFailure("the test server did not start within 10 s")
    }
}

/// An OpenSSH server on 127.0.0.1 for one test, with its own host key, two user keys (one
/// locked with "pass phrase") and a known-hosts file; it logs in the current user by key only.
/// A shell wrapper stops it when the test process goes away.
private struct LocalSSHServer: Sendable {
    let port: Int
    let user: String
    let folder: URL

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/sbin/sshd")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/ssh-keygen")
    }

    var key: String { folder.appendingPathComponent("user_ed25519").path }
    var lockedKey: String { folder.appendingPathComponent("locked_ed25519").path }
    var knownHosts: String { folder.appendingPathComponent("known_hosts").path }
    var wrongKnownHosts: String { folder.appendingPathComponent("wrong_known_hosts").path }
    var credentials: TransferCredentials { credentials() }

    func credentials(key: String? = nil, passphrase: String? = nil, knownHosts: String? = nil) -> TransferCredentials {
        .ssh(user: user, privateKey: key ?? self.key, publicKey: nil, passphrase: passphrase,
             knownHosts: knownHosts ?? self.knownHosts)
    }

    /// Starts a server, runs `body` with it, and stops it.
    static func run(_ body: (LocalSSHServer) async throws -> Void) async throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        for (name, passphrase) in [("host_ed25519", ""), ("user_ed25519", ""), ("locked_ed25519", "pass phrase")] {
            let keygen = try await ToolRunner.run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", passphrase, "-C", "bibread-test", "-f", path(name)])
            guard keygen.status == 0 else {
                throw ServerFailure("ssh-keygen failed: \(keygen.standardError)")
            }
        }
        func publicKey(_ name: String) throws -> String {
            try String(contentsOfFile: path(name + ".pub"), encoding: .utf8).split(separator: " ").prefix(2).joined(separator: " ")
        }
        let port = try freePort()
        try (publicKey("user_ed25519") + "\n" + publicKey("locked_ed25519") + "\n").write(toFile: path("authorized_keys"), atomically: true, encoding: .utf8)
        try "[127.0.0.1]:\(port) \(publicKey("host_ed25519"))\n".write(toFile: path("known_hosts"), atomically: true, encoding: .utf8)
        try "[127.0.0.1]:\(port) \(publicKey("user_ed25519"))\n".write(toFile: path("wrong_known_hosts"), atomically: true, encoding: .utf8)
        chmod(path("authorized_keys"), 0o600)
        let config = """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(path("host_ed25519"))
            AuthorizedKeysFile \(path("authorized_keys"))
            PidFile \(path("sshd.pid"))
            StrictModes no
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            Subsystem sftp internal-sftp

            """
        try config.write(toFile: path("sshd_config"), atomically: true, encoding: .utf8)
        let wrapper = """
            /usr/sbin/sshd -D -e -f "$1" & child=$!
            trap 'kill $child; exit 0' TERM
            while kill -0 "$PPID" 2>/dev/null && kill -0 "$child" 2>/dev/null; do sleep 0.2; done
            kill "$child" 2>/dev/null
            """
        let process = try ServerProcess.spawn("/bin/sh", ["-c", wrapper, "sshd-wrapper", path("sshd_config")],
                                              logPath: path("sshd.log"), outputPath: "/dev/null")
        defer { process.stop() }
        var listening = false
        for _ in 0..<250 where !listening {
            listening = ((try? String(contentsOfFile: path("sshd.log"), encoding: .utf8)) ?? "").contains("Server listening")
            if !listening { try await Task.sleep(for: .milliseconds(20)) }
        }
        guard listening else {
            throw ServerFailure("sshd did not start: \((try? String(contentsOfFile: path("sshd.log"), encoding: .utf8)) ?? "")")
        }
        let user = getpwuid(geteuid()).flatMap { String(validatingCString: $0.pointee.pw_name) } ?? "root"
        try await body(LocalSSHServer(port: port, user: user, folder: folder))
    }
}

/// A TCP port on 127.0.0.1 that nobody listens on just now.
private func freePort() throws -> Int {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw ServerFailure("socket: \(String(cString: strerror(errno)))") }
    defer { close(socket) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(socket, generic, length) == 0 && getsockname(socket, generic, &length) == 0
        }
    }
    guard bound else { throw ServerFailure("bind: \(String(cString: strerror(errno)))") }
    return Int(UInt16(bigEndian: address.sin_port))
}

private struct ServerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

private let serverScript = #"""
import base64, http.server, json, os, socket, sys, threading, time

def payload(size, seed):
    return bytes(((i * 31 + seed * 7) & 0xFF) for i in range(size))

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *arguments):
        pass

    def do_GET(self): self.route(True)
    def do_POST(self): self.route(True)
    def do_PUT(self): self.route(True)
    def do_DELETE(self): self.route(True)
    def do_PROPFIND(self): self.route(True)
    def do_HEAD(self): self.route(False)

    def route(self, send_body):
        path, _, query = self.path.partition("?")
        params = dict(item.split("=", 1) for item in query.split("&") if "=" in item)
        parts = path.strip("/").split("/")
        name = parts[0]
        if name in ("data", "norange", "badrange"):
            self.data(int(parts[1]), int(params.get("seed", "0")), name, send_body)
        elif name == "status":
            code = int(parts[1])
            body = b"" if code == 304 else ("error body %d\n" % code).encode()
            self.reply(code, body, send_body)
        elif name == "echo":
            length = int(self.headers.get("Content-Length", "0"))
            received = self.rfile.read(length) if length else b""
            answer = json.dumps({
                "method": self.command,
                "path": self.path,
                "headers": {key.lower(): value for key, value in self.headers.items()},
                "body": base64.b64encode(received).decode(),
            }).encode()
            self.reply(200, answer, send_body, [("Content-Type", "application/json"), ("X-Echo-Method", self.command)])
        elif name == "redirect":
            self.send_response(302)
            self.send_header("Location", "/" + "/".join(parts[1:]) + ("?" + query if query else ""))
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif name == "truncate":
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(payload(500, 0))
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
        elif name == "stall":
            time.sleep(float(params.get("seconds", "30")))
            self.close_connection = True
        elif name == "slow":
            self.send_response(200)
            self.send_header("Connection", "close")
            self.end_headers()
            self.close_connection = True
            chunk = payload(1024, 1)
            try:
                while True:
                    self.wfile.write(chunk)
                    self.wfile.flush()
                    time.sleep(0.02)
            except OSError:
                pass
        else:
            self.reply(404, b"no such endpoint\n", send_body)

    def reply(self, code, body, send_body, headers=()):
        self.send_response(code)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def data(self, size, seed, kind, send_body):
        body = payload(size, seed)
        headers = [("ETag", '"%d-%d"' % (size, seed)), ("Last-Modified", "Wed, 21 Oct 2015 07:28:00 GMT"), ("Accept-Ranges", "bytes")]
        wanted = self.headers.get("Range")
        if kind == "norange" or not wanted or not wanted.startswith("bytes="):
            return self.reply(200, body, send_body, headers)
        first, _, last = wanted[6:].partition("-")
        start = int(first)
        if kind == "badrange":
            start = 0
        elif start >= size:
            return self.reply(416, b"range not satisfiable\n", send_body, [("Content-Range", "bytes */%d" % size)])
        end = int(last) if last else size - 1
        self.reply(206, body[start:end + 1], send_body, headers + [("Content-Range", "bytes %d-%d/%d" % (start, end, size))])

def watch_parent(parent):
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
threading.Thread(target=watch_parent, args=(int(sys.argv[1]),), daemon=True).start()
print(server.server_address[1], flush=True)
server.serve_forever()
"""#
