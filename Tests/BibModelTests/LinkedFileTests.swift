import BibModel
import Foundation
import Testing
import BibreadTestSupport

@Suite("linked files")
struct LinkedFileTests {
    private var samples: Library { Fixtures.library(at: Fixtures.samples.appendingPathComponent("library.bib")) }
    private var papers: String { Fixtures.samples.appendingPathComponent("papers").path }

    /// (key, expected linked files relative to Samples/papers, and whether each exists)
    static let sampleLinks: [(String, [String], [Bool])] = [
        ("knuth1981breaking", ["line-breaking.pdf"], [true]),        // keyed archive, usual order
        ("knuth1984texbook", ["tex-tour.pdf"], [true]),              // keyed archive, objects reordered
        ("goedel1931formal", ["incompleteness.pdf"], [true]),        // plain binary-plist dictionary
        ("dijkstra1959note", ["shortest-paths.pdf"], [true]),        // JabRef description:path:type
        ("shannon1948mathematical", ["information-theory.pdf", "information-theory-slides.pdf"], [true, false]),
        ("turing1936computable", ["missing.pdf"], [false]),
    ]

    @Test(arguments: sampleLinks)
    func sampleLibraryLinks(_ key: String, _ names: [String], _ exists: [Bool]) throws {
        let entry = try #require(samples.entry(addressedBy: key))
        let files = entry.links.files
        #expect(files.map(\.path) == names.map { "\(papers)/\($0)" })
        #expect(files.map { FilesOnDisk().location(of: $0).isHere } == exists)
        #expect(entry.links.problems.isEmpty)
    }

    @Test func realBibDeskFileFromTheCorpus() throws {
        let url = Fixtures.corpus("bib/texlive-misc/texlive-bibtex-extra_doc_latex_biblatex-fiwi_examples.bib")
        let entry = try #require(Fixtures.library(at: url).entry(addressedBy: "Hellwig.J:1976b"))
        let folder = url.deletingLastPathComponent()
        let expected = folder.appendingPathComponent("../../../Publikationen/Hellwig.J/Hellwig.J1976Protokoll-Auszüge aus der Gesprächsrunde Werkstatt Zukunfta.pdf")
            .standardizedFileURL.path.precomposedStringWithCanonicalMapping
        #expect(entry.links.files.map(\.path) == [expected])
    }

    @Test func realJabRefWindowsPathsFromTheCorpus() throws {
        let url = Fixtures.corpus("bib/zotero-bbt/import_Jabref_import_-_groups_lost__1730-5.bib")
        let library = Fixtures.library(at: url)
        let entry = try #require(library.entries.first { $0.raw("file")?.hasPrefix("R1:") == true })
        #expect(entry.links.files.map(\.path) == [
            #"C:\Users\jfd1\jfd1\group\papers\2019\A_Chau_Journal\VSDH_MAC_MDPI_R1_electronics-845046.pdf"#,
            #"C:\Users\jfd1\jfd1\group\papers\2019\A_Chau_Journal\VSDH_MAC_MDPI_R2_electronics-845046.pdf"#,
            #"C:\Users\jfd1\jfd1\group\papers\2019\A_Chau_Journal\electronics-09-01219.pdf"#,
        ])
        #expect(entry.links.files.allSatisfy { !FilesOnDisk().location(of: $0).isHere })
    }

    /// Real Zotero Better BibTeX exports: (file, key, expected paths; `~` is the home folder).
    static let zoteroExports: [(String, String, [String])] = [
        ("bib/zotero-bbt/import_Better_BibTeX.015.bib", "robinson2007theoriesglobalization",
         ["<dir>/Better BibTeX.015/F64PVIN4/Robinson_2007_Theories of globalization.pdf"]),
        ("bib/zotero-bbt/export_Transforming_exported_file_names__windows_path_conversion___1939.bibtex",
         "wainwright-2007-GraphicalModelsExponential", ["~/BBTTEST/storage/Baltes_Staudinger_2000_Wisdom.pdf"]),
    ]

    @Test(arguments: zoteroExports)
    func realZoteroFileFields(_ path: String, _ key: String, _ expected: [String]) throws {
        let url = Fixtures.corpus(path)
        let entry = try #require(Fixtures.library(at: url).entry(addressedBy: key))
        let home = FileManager.default.homeDirectoryForCurrentUser.path
        let folder = url.deletingLastPathComponent().standardizedFileURL.path
        #expect(entry.links.files.map(\.path) == expected.map {
            $0.replacingOccurrences(of: "<dir>", with: folder).replacingOccurrences(of: "~", with: home)
        })
    }

    /// (file field, expected paths; relative ones are resolved against /lib)
    static let fileFields: [(String, [String])] = [
        ("Full text:papers/a.pdf:PDF", ["/lib/papers/a.pdf"]),
        (":papers/a.pdf:PDF;Slides:papers/b.pdf:PDF", ["/lib/papers/a.pdf", "/lib/papers/b.pdf"]),
        (#"desc:C\:\\Users\\me\\x.pdf:PDF"#, [#"C:\Users\me\x.pdf"#]),
        (#"a\;b.pdf:PDF"#, ["/lib/a;b.pdf"]),
        ("/Users/me/Dropbox/Papers/x.pdf", ["/Users/me/Dropbox/Papers/x.pdf"]),
        ("/home/a/x.pdf;/home/a/y.pdf", ["/home/a/x.pdf", "/home/a/y.pdf"]),
        ("Robinson.pdf:Better BibTeX.015/F64PVIN4/Robinson.pdf:application/pdf", ["/lib/Better BibTeX.015/F64PVIN4/Robinson.pdf"]),
        ("papers/../papers/./c.pdf", ["/lib/papers/c.pdf"]),
        ("http://v3.espacenet.com/textdoc?IDX=EP1700367", []),
        ("", []),
    ]

    @Test(arguments: fileFields)
    func fileFieldForms(_ value: String, _ expected: [String]) throws {
        let library = Library.parse([(path: "/lib/x.bib", bytes: Array("@misc{k, file = {\(value)}}".utf8))])
        let entry = try #require(library.entries.first)
        #expect(entry.links.files.map(\.path) == expected)
    }

    @Test func urlsInFileFieldsAreLinks() throws {
        let entry = try #require(Fixtures.library("@misc{k, file = {http://v3.espacenet.com/textdoc?IDX=EP1700367}}").entries.first)
        #expect(entry.links.urls == ["http://v3.espacenet.com/textdoc?IDX=EP1700367"])
    }

    @Test func webLinksFromUrlDoiEprintAndBibDesk() throws {
        let entry = try #require(Fixtures.library("""
        @misc{k, url = {https://a.org/x\\_y}, doi = {10.1000/182}, eprint = {2309.06784}, archiveprefix = {arXiv},
                 Bdsk-Url-1 = {https://b.org/}}
        """).entries.first)
        #expect(entry.links.urls == ["https://a.org/x_y", "https://b.org/", "https://doi.org/10.1000/182", "https://arxiv.org/abs/2309.06784"])
    }

    @Test(arguments: [
        ("10.1000/182", "https://doi.org/10.1000/182"),
        ("doi:10.1000/182", "https://doi.org/10.1000/182"),
        ("10.1000/doi:x doi:", "https://doi.org/10.1000/x "),
        ("DOI:10.1/x", "https://doi.org/DOI:10.1/x"),
        ("https://doi.org/10.1/x", "https://doi.org/10.1/x"),
        ("HTTP://dx.doi.org/10.1/x", "https://doi.org/10.1/x"),
        ("htt", "https://doi.org/htt"),
        ("10.1002/(SICI)1097-0258:3<1::AID>", "https://doi.org/10.1002/(SICI)1097-0258:3<1::AID>"),
        ("doi", "https://doi.org/doi"),
        ("httpx", "httpx"),
        ("10.1/é-doi:ü", "https://doi.org/10.1/é-ü"),
    ])
    func doiLinks(_ doi: String, _ url: String) throws {
        let entry = try #require(Fixtures.library("@misc{k, doi = {\(doi)}}").entries.first)
        #expect(entry.links.urls == [url])
    }

    @Test func pathsAreNormalisedToNFC() throws {
        // "Gödel" with a combining diaeresis (NFD, as macOS file systems write it).
        let decomposed = "Go\u{0308}del.pdf"
        let library = Library.parse([(path: "/lib/x.bib", bytes: Array("@misc{k, file = {:\(decomposed):PDF}}".utf8))])
        let path = try #require(library.entries.first?.links.files.first?.path)
        #expect(path == "/lib/G\u{00F6}del.pdf")
    }

    /// (Bdsk-File value, expected problem)
    static let badBibDeskFiles: [(String, BibDeskFile.Problem)] = [
        ("not base64 at all!", .notBase64),
        ("aGVsbG8gd29ybGQ=", .notPropertyList("not a binary property list")),
        // A keyed archive with only alias data, as old BibDesk versions wrote.
        ("YnBsaXN0MDDUAQIDBAUGGRxZJGFyY2hpdmVyWCRvYmplY3RzVCR0b3BYJHZlcnNpb25fEA9OU0tleWVkQXJjaGl2ZXKlBwgREhNVJG51bGzTCQoLDA0PViRjbGFzc1dOUy5rZXlzWk5TLm9iamVjdHOABKEOgAKhEIADWWFsaWFzRGF0YUIAAdIUFRYXWCRjbGFzc2VzWiRjbGFzc25hbWWiFxhcTlNEaWN0aW9uYXJ5WE5TT2JqZWN00RobVHJvb3SAARIAAYagCBEbJCkyREpQV15mcXN1d3l7hYiNlqGksbq9wsQAAAAAAAABAQAAAAAAAAAdAAAAAAAAAAAAAAAAAAAAyQ==", .noRelativePath),
    ]

    @Test(arguments: badBibDeskFiles)
    func badBibDeskFilesAreReportedNotFatal(_ value: String, _ problem: BibDeskFile.Problem) throws {
        #expect(BibDeskFile.relativePath(fromBase64: value) == .failure(problem))
        let entry = try #require(Fixtures.library("@misc{k, Bdsk-File-1 = {\(value)}, title = {T}}").entries.first)
        #expect(entry.links.problems.map(\.field) == ["Bdsk-File-1"])
        #expect(entry.title == "T")
    }

    @Test func truncatedPropertyListsAreRefused() throws {
        let sample = try #require(samples.entry(addressedBy: "knuth1981breaking")?.raw("bdsk-file-1"))
        let bytes = try #require(Data(base64Encoded: sample))
        for length in stride(from: 0, to: bytes.count, by: 7) {
            // Never a crash, whatever the cut.
            _ = try? BinaryPropertyList.parse([UInt8](bytes.prefix(length)))
        }
        #expect(throws: PropertyListError.self) { try BinaryPropertyList.parse([UInt8](bytes.prefix(bytes.count - 10))) }
    }
}

/// Linked paths come out standardized (no `.`, `..` or empty components) exactly as Foundation's
/// `standardizedFileURL` makes them, whether or not they needed it.
@Suite("linked file paths, standardized")
struct LinkedPathStandardizingTests {
    static let paths = [
        "papers/a.pdf", "papers/./a.pdf", "papers/../papers/b.pdf", "papers//c.pdf", "./d.pdf",
        ".hidden/e.pdf", "papers/.../f.pdf", "papers/..g/h.pdf", "papers/g../h.pdf", "papers/sub/",
        "/abs/x/../y.pdf", "/abs/./z.pdf", "/abs//w.pdf", "/abs/v.pdf", "/abs/.dot/u.pdf", "/abs/..",
    ]

    @Test(arguments: paths)
    func standardizedLikeFoundation(_ path: String) throws {
        let folder = "/tmp/bibread-standardize-test"
        let library = Library.parse([(path: folder + "/lib.bib", bytes: Array("@misc{k, file = {:\(path):PDF}}".utf8))])
        let entry = try #require(library.entries.first)
        let resolved = try #require(entry.links.files.first?.path)
        let absolute = path.hasPrefix("/") ? path : folder + "/" + path
        #expect(resolved == URL(fileURLWithPath: absolute).standardizedFileURL.path)
        #expect(!resolved.contains("/./") && !resolved.contains("//") && (resolved == "/" || !resolved.hasSuffix("/")))
    }
}

/// A DOI is one link, in one form, whatever form and case the fields give it in.
@Suite("DOI links")
struct DOILinkTests {
    /// The DOI a link names (`doi.org/…`, `dx.doi.org/…`), lower-cased: DOIs ignore case.
    private static func doi(in url: String) -> String? {
        guard let range = url.range(of: #"^https?://(dx\.)?doi\.org/"#, options: [.regularExpression, .caseInsensitive]) else { return nil }
        return url[range.upperBound...].removingPercentEncoding?.lowercased()
    }

    @Test func aDOIGivenAsURLAndAsDOIIsOneLink() throws {
        let library = Fixtures.library(at: Fixtures.corpus("bib/plume/soft-eng.bib"))
        let entry = try #require(library.entry(addressedBy: "Kitchenham:2010:SLR:1808352.1808650"))
        #expect(entry.links.urls == ["https://doi.org/10.1016/j.infsof.2010.03.006"])
    }

    @Test func noReferenceOfTheCorporaListsADOITwice() throws {
        var checked = 0
        var twice: [String] = []
        for url in Fixtures.corpusBibFiles {
            for entry in Fixtures.library(at: url).entries {
                let urls = entry.links.urls
                let dois = urls.compactMap(DOILinkTests.doi(in:))
                checked += dois.count
                let plainHTTP = urls.contains { $0.lowercased().hasPrefix("http://dx.doi.org/") || $0.lowercased().hasPrefix("http://doi.org/") }
                if Set(dois).count != dois.count || plainHTTP { twice.append("\(url.lastPathComponent) \(entry.key): \(urls)") }
            }
        }
        #expect(checked > 100)
        #expect(twice.isEmpty, "\(twice.count) references, first: \(twice.prefix(3))")
    }
}
