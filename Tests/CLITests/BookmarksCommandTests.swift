import BibreadTestSupport
import Foundation
import Testing

/// `bibread bookmarks`, run as a user runs it: lists made by an independent encoder (Python's
/// plistlib, zlib, struct and base64), served by a real HTTP server on 127.0.0.1.
@Suite("bibread bookmarks")
struct BookmarksCommandTests {
    /// Fresh XDG folders, so the state store starts empty.
    final class Setup: IsolatedHome {
        let library = Fixtures.samples.appendingPathComponent("library.bib").path

        /// Runs a Python script (with `root` as its working folder) and returns its standard output.
        func python(_ script: String) throws -> String {
            let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script], currentDirectory: root)
            #expect(result.status == 0, "python: \(result.standardError)")
            return result.standardOutput
        }
    }

    /// A list as Python builds it: numbers partly written as strings, page notes included.
    static let pythonTree = """
        import plistlib, json, zlib, struct, base64, sys
        tree = {"Class": "Folder", "Name": "Logic seminar", "IncludesPageNotes": "YES", "Children": [
            {"Class": "Folder", "Name": "Week 1", "Children": [
                {"Class": "Bookmark", "Name": "Incompleteness", "Reference": {"Class": "Reference", "CiteKey": "goedel1931formal",
                 "Library": "library.bib", "Page": "2", "LastPage": 3}, "Notes": ["Proof sketch", ""]},
                {"Class": "Notemark", "Name": "Questions", "Text": "What is a formal system?", "Colour": "red"}]},
            {"Class": "Bookmark", "Name": "Not here", "Reference": {"CiteKey": "nobody1999", "Page": 1}}]}
        """

    @Test func aPythonMadeListValidatesImportsAndExportsInEveryFormat() throws {
        let setup = try Setup()
        _ = try setup.python(Self.pythonTree + "\nopen('list.bplist', 'wb').write(plistlib.dumps(tree, fmt=plistlib.FMT_BINARY))")
        let file = setup.root.appendingPathComponent("list.bplist").path

        let validate = try setup.bibread(["bookmarks", "validate", file, "--library", setup.library])
        #expect(validate.status == 0, "\(validate.standardError)")
        #expect(validate.standardOutput.contains("warning: Children[1].Reference.CiteKey: \"nobody1999\" is not in the library"))
        #expect(validate.standardOutput.contains("valid binary property list: 1 folder, 2 bookmarks, 1 notemark, 1 page notes; 1 warning"))

        let refused = try setup.bibread(["bookmarks", "import", file])
        #expect(refused.status == 64)
        #expect(refused.standardError.contains("the list carries 1 page notes: say --notes yes or --notes no"))

        let imported = try setup.bibread(["bookmarks", "import", file, "--notes", "yes", "--library", setup.library])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("Imported 'Logic seminar': 2 bookmarks, 1 folder, 1 notemark, 1 page note added"))
        #expect(imported.standardError.contains("1 cite key is not in the library: nobody1999"))

        let list = try setup.bibread(["bookmarks", "list", "--library", setup.library])
        #expect(list.standardOutput == """
            Bookmarks
            └── Logic seminar/
                ├── Week 1/
                │   ├── goedel1931formal p. 2–3 · Incompleteness
                │   └── ✎ Questions: What is a formal system?
                └── nobody1999 p. 1 · Not here  (not in the library)

            """)

        // Export, then read back with Python: the same tree, notes included.
        let normalize = """
            def norm(node):
                node.pop("Id", None)
                if node.get("Class") == "Bookmark":
                    node["Reference"].setdefault("Class", "Reference")
                for child in node.get("Children", []): norm(child)
                return node
            """
        for format in ["xml", "binary", "json"] {
            let out = setup.root.appendingPathComponent("out.\(format)").path
            let export = try setup.bibread(["bookmarks", "export", "Logic seminar", "--format", format, "--with-notes", "-o", out])
            #expect(export.status == 0, "\(export.standardError)")
            let load = format == "json" ? "json.load(open('\(out)'))" : "plistlib.load(open('\(out)', 'rb'))"
            let read = try setup.python(Self.pythonTree + "\n" + normalize + "\ntree2 = norm(\(load))\ntree2['IncludesPageNotes'] = tree2.get('IncludesPageNotes')\nprint(json.dumps(tree2, sort_keys=True))")
            let wanted = try setup.python(Self.pythonTree + """

                tree["Children"][0]["Children"][0]["Reference"]["Page"] = 2
                tree["Children"][0]["Children"][0]["Notes"] = ["Proof sketch"]
                del tree["Children"][0]["Children"][1]["Colour"]
                tree["Children"][1]["Reference"]["Class"] = "Reference"
                print(json.dumps(tree, sort_keys=True))
                """)
            #expect(read == wanted, "format \(format)")
        }

        // The link, decoded by Python by the documented recipe.
        let link = try setup.bibread(["bookmarks", "export", "Logic seminar/Week 1", "--format", "link"])
        #expect(link.status == 0)
        #expect(link.standardOutput.hasPrefix("bibread://bookmarks?"))
        let decoded = try setup.python("""
            import sys, base64, zlib, struct, plistlib, json, urllib.parse
            data = base64.b64decode(urllib.parse.unquote(sys.argv[1].strip().split('?', 1)[1]))
            length = struct.unpack('<I', data[:4])[0]
            body = zlib.decompress(data[4:])
            assert len(body) == length, (len(body), length)
            assert body.startswith(b'bplist00')
            tree = plistlib.loads(body)
            print(tree["Name"], [c["Name"] for c in tree["Children"]], tree["Children"][0]["Reference"]["Page"])
            """.replacingOccurrences(of: "sys.argv[1]", with: "'''\(link.standardOutput)'''"))
        #expect(decoded == "Week 1 ['Incompleteness', 'Questions'] 2\n")
    }

    @Test func anInvalidListReportsEveryErrorAndImportsNothing() throws {
        let setup = try Setup()
        let file = setup.root.appendingPathComponent("bad.json")
        try Data("""
            {"Class": "Folder", "Name": "Bad", "Children": [
              {"Class": "Bookmark", "Name": "ok", "Reference": {"CiteKey": "goedel1931formal", "Page": 2}},
              {"Class": "Bokmark", "Name": "typo"},
              {"Class": "Bookmark", "Name": "bad page", "Reference": {"CiteKey": "goedel1931formal", "Page": "abc"}},
              {"Class": "Bookmark", "Reference": {"Page": 4}}
            ]}
            """.utf8).write(to: file)
        let validate = try setup.bibread(["bookmarks", "validate", file.path])
        #expect(validate.status == 1)
        #expect(validate.standardOutput.contains("error: Children[1].Class: expected Folder, Bookmark or Notemark, found \"Bokmark\""))
        #expect(validate.standardOutput.contains("error: Children[2].Reference.Page: expected a number ≥ 1, found \"abc\""))
        #expect(validate.standardOutput.contains("error: Children[3].Reference.CiteKey"))
        #expect(validate.standardOutput.contains("error: Children[3].Name"))

        let json = try setup.bibread(["bookmarks", "validate", file.path, "--json"])
        #expect(json.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(report["valid"] as? Bool == false)
        #expect((report["errors"] as? [[String: Any]])?.count ?? 0 >= 4)

        let imported = try setup.bibread(["bookmarks", "import", file.path])
        #expect(imported.status == 1)
        #expect(imported.standardError.contains("nothing was imported"))
        let list = try setup.bibread(["bookmarks", "list"])
        #expect(list.standardOutput.hasPrefix("No bookmarks yet."))
    }

    @Test func listsComeFromURLsAndDownloadLinksWithinTheSizeCap() throws {
        let setup = try Setup()
        let served = setup.root.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        _ = try setup.python(Self.pythonTree + "\nopen('www/week.plist', 'wb').write(plistlib.dumps(tree, fmt=plistlib.FMT_XML))")
        // 17 MB of a valid-looking start: refused by size, whatever it holds.
        let bigPath = served.appendingPathComponent("big.plist").path
        #expect(FileManager.default.createFile(atPath: bigPath, contents: nil))
        let big = try #require(FileHandle(forWritingAtPath: bigPath))
        big.write(Data(repeating: 0x20, count: 17 << 20))
        try big.close()
        let server = try StaticHTTPServer.start(root: served)
        defer { server.stop() }

        let url = server.url(for: "week.plist").absoluteString
        let fromURL = try setup.bibread(["bookmarks", "import", url, "--notes", "no"])
        #expect(fromURL.status == 0, "\(fromURL.standardError)")
        #expect(fromURL.standardOutput.contains("Imported 'Logic seminar': 2 bookmarks, 1 folder, 1 notemark; page notes not imported"))

        let escaped = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
        let viaLink = try setup.bibread(["bookmarks", "import", "bibread://downloadbookmarks?\(escaped)", "--notes", "no"])
        #expect(viaLink.status == 0, "\(viaLink.standardError)")
        #expect(viaLink.standardOutput.contains("Imported 'Logic seminar (2)'"))

        let missing = try setup.bibread(["bookmarks", "import", server.url(for: "nothing.plist").absoluteString])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("HTTP 404"))

        let tooBig = try setup.bibread(["bookmarks", "validate", server.url(for: "big.plist").absoluteString])
        #expect(tooBig.status == 1)
        #expect(tooBig.standardOutput.contains("larger than the 16 MB allowed"))
    }

    @Test func ctrlCStopsASlowDownloadAndImportsNothing() throws {
        let setup = try Setup()
        let served = setup.root.appendingPathComponent("www")
        try FileManager.default.createDirectory(at: served, withIntermediateDirectories: true)
        _ = try setup.python(Self.pythonTree + "\nopen('www/week.plist', 'wb').write(plistlib.dumps(tree, fmt=plistlib.FMT_XML))")
        let server = try FaultServer.start(root: served)
        defer { server.stop() }
        try server.setFault(.slow(bytesPerSecond: 100), for: "week.plist")

        let process = Process()
        process.executableURL = ProcessRunner.bibreadExecutable
        process.arguments = ["bookmarks", "import", server.url(for: "week.plist").absoluteString, "--notes", "no"]
        process.environment = ProcessInfo.processInfo.environment.merging(setup.environment) { _, new in new }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        Thread.sleep(forTimeInterval: 1.5)
        #expect(process.isRunning, "the download takes many seconds at 100 bytes a second")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130)
        #expect(message.contains("stopped downloading"))
        let list = try setup.bibread(["bookmarks", "list"])
        #expect(list.standardOutput.hasPrefix("No bookmarks yet."))
    }

    @Test func aLinkBuiltByPythonImports() throws {
        let setup = try Setup()
        let link = try setup.python(Self.pythonTree + """

            body = plistlib.dumps(tree, fmt=plistlib.FMT_BINARY)
            data = struct.pack('<I', len(body)) + zlib.compress(body, 9)
            print('bibread://bookmarks?' + base64.urlsafe_b64encode(data).decode().rstrip('='))
            """).trimmingCharacters(in: .whitespacesAndNewlines)
        let imported = try setup.bibread(["bookmarks", "import", link, "--notes", "yes"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("Imported 'Logic seminar': 2 bookmarks, 1 folder, 1 notemark, 1 page note added"))

        let broken = try setup.bibread(["bookmarks", "validate", String(link.dropLast(12))])
        #expect(broken.status == 1)
        #expect(broken.standardOutput.contains("bibread:"))
    }

    @Test func addPutsABookmarkInAFolderNamedByItsPath() throws {
        let setup = try Setup()
        let added = try setup.bibread(["bookmarks", "add", "goedel1931formal:3-5", "--folder", "Logic/Week 1", "--library", setup.library])
        #expect(added.status == 0, "\(added.standardError)")
        // The TeXbook's pages are printed i, ii, 1, 2, 3: its printed page 2 is the fourth of the file.
        let again = try setup.bibread(["bookmarks", "add", "knuth1984texbook:2", "--folder", "Logic", "--name", "TeX", "--library", setup.library])
        #expect(again.status == 0)
        let list = try setup.bibread(["bookmarks", "list"])
        #expect(list.standardOutput.contains("""
            └── Logic/
                ├── Week 1/
                │   └── goedel1931formal p. 3–5 · 
            """))
        #expect(list.standardOutput.contains("    └── knuth1984texbook p. 2 (#4) · TeX"))

        let bad = try setup.bibread(["bookmarks", "add", "goedel1931formal:5-3"])
        #expect(bad.status == 64)
        let noFolder = try setup.bibread(["bookmarks", "export", "Nowhere"])
        #expect(noFolder.status == 1)
        #expect(noFolder.standardError.contains("there is no bookmark folder 'Nowhere'"))
    }

    @Test func addingAKeyThatIsNotInTheLibraryFailsAndAddsNothing() throws {
        let setup = try Setup()
        let missing = try setup.bibread(["bookmarks", "add", "nosuchkey:3", "--folder", "Reading", "--library", setup.library])
        #expect(missing.status == 64, "\(missing.standardOutput)\(missing.standardError)")
        #expect(missing.standardError.contains("bibread: nosuchkey is not in the library"), "\(missing.standardError)")
        #expect(missing.standardError.contains("library.bib"))
        #expect(!missing.standardOutput.contains("Bookmarked"))
        // Nothing was kept: neither the bookmark nor its folder.
        let list = try setup.bibread(["bookmarks", "list"])
        #expect(!list.standardOutput.contains("nosuchkey"), "\(list.standardOutput)")
        #expect(!list.standardOutput.contains("Reading/"), "\(list.standardOutput)")
        // A key of the library is still added, whatever its case.
        let present = try setup.bibread(["bookmarks", "add", "Goedel1931Formal:3", "--library", setup.library])
        #expect(present.status == 0, "\(present.standardError)")
    }
}
