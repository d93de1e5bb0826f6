import BibModel
import BibreadValues
import OpenWith
import Testing

@Suite("Safe substitution")
struct SubstitutionTests {
    private func entry(_ argv: [String], stdin: String? = nil, style: HandlerStyle = .quick) -> HandlerEntry {
        HandlerEntry(id: "t", name: "t", argv: argv, standardInput: stdin, intentions: [.read], style: style)
    }

    private func build(_ argv: [String], stdin: String? = nil, _ values: [Placeholder: String]) throws(SubstitutionError) -> PreparedCommand {
        try CommandBuilder.command(for: entry(argv, stdin: stdin), values: HandlerValues(values), executable: "/usr/bin/prog")
    }

    private func failure(_ argv: [String], stdin: String? = nil, _ values: [Placeholder: String]) -> SubstitutionError? {
        do {
            _ = try build(argv, stdin: stdin, values)
            return nil
        } catch {
            return error
        }
    }

    @Test("each template argument stays one argument, shell characters and all")
    func oneArgumentEach() throws {
        let key = "a b;rm -rf ~ $(touch pwned) `id` | > x && \"q\" 'q'"
        let command = try build(["prog", "{key}", "--key={key}", "x{key}y"], [.key: key])
        #expect(command.executable == "/usr/bin/prog")
        #expect(command.arguments == [key, "--key=\(key)", "x\(key)y"])
        #expect(command.standardInput == nil)
    }

    @Test("a whole-argument key starting with - is refused, with a clear message")
    func dashKeyRefused() throws {
        let error = failure(["prog", "{key}"], [.key: "-rf"])
        #expect(error == .wouldBeOption(.key, value: "-rf"))
        #expect(error?.description == "the key '-rf' would be read as an option")
        #expect(failure(["prog", "{key}.pdf"], [.key: "--help"]) == .wouldBeOption(.key, value: "--help"))
        #expect(failure(["prog", "{key}"], [.key: "+q"]) == .wouldBeOption(.key, value: "+q"))
        #expect(try build(["prog", "--cite={key}"], [.key: "-rf"]).arguments == ["--cite=-rf"], "after a literal it cannot be an option")
    }

    @Test("a file name starting with - gets ./ before it")
    func dashFileGetsDotSlash() throws {
        #expect(try build(["prog", "{file}"], [.file: "--help"]).arguments == ["./--help"])
        #expect(try build(["prog", "{file}"], [.file: "-rf dir/x.pdf"]).arguments == ["./-rf dir/x.pdf"])
        #expect(try build(["prog", "{file}"], [.file: "/papers/--help.pdf"]).arguments == ["/papers/--help.pdf"])
        #expect(try build(["prog", "--file={file}"], [.file: "--help"]).arguments == ["--file=--help"])
        #expect(failure(["prog", "{file}"], [.file: ""]) == .emptyValue(.file))
    }

    @Test("pages are digits only")
    func pages() throws {
        #expect(try build(["prog", "--page={page}"], [.page: "12"]).arguments == ["--page=12"])
        #expect(failure(["prog", "--page={page}"], [.page: "12; ls"]) == .invalidPage("12; ls"))
        #expect(failure(["prog", "{page}"], [.page: "-1"]) == .invalidPage("-1"))
        #expect(failure(["prog", "{page}"], [.page: ""]) == .invalidPage(""))
        #expect(failure(["prog", "{page}"], [.page: "١٢"]) == .invalidPage("١٢"), "digits are ASCII digits")
        #expect(failure(["prog", "{page}"], [.page: "1234567890"]) == .invalidPage("1234567890"))
    }

    @Test("a value holding NUL is refused, in arguments and on standard input")
    func nulRefused() {
        #expect(failure(["prog", "{key}"], [.key: "a\u{0}b"]) == .containsNUL(.key))
        #expect(failure(["prog", "{file}"], [.file: "/x\u{0}.pdf"]) == .containsNUL(.file))
        #expect(failure(["prog"], stdin: "{pagetext}", [.pageText: "text\u{0}"]) == .containsNUL(.pageText))
    }

    @Test("over-long values are refused")
    func overLongRefused() throws {
        let limit = CommandBuilder.argumentValueLimit
        #expect(try build(["prog", "{key}"], [.key: String(repeating: "k", count: limit)]).arguments[0].utf8.count == limit)
        #expect(failure(["prog", "{key}"], [.key: String(repeating: "k", count: limit + 1)]) == .tooLong(.key, limit: limit))
        let big = String(repeating: "p", count: limit)
        #expect(failure(["prog", "{pagetext}{pagetext}{pagetext}"], [.pageText: big]) == .argumentTooLong(limit: CommandBuilder.argumentLimit))
        let stdinLimit = CommandBuilder.standardInputLimit
        #expect(failure(["prog"], stdin: "{pagetext}", [.pageText: String(repeating: "t", count: stdinLimit + 1)])
            == .tooLong(.pageText, limit: stdinLimit))
        #expect(failure(["prog"], stdin: "x{pagetext}", [.pageText: String(repeating: "t", count: stdinLimit)])
            == .standardInputTooLong(limit: stdinLimit))
    }

    @Test("URLs must be http, https, ftp or file, without spaces")
    func urls() throws {
        #expect(try build(["prog", "{url}"], [.url: "https://example.org/a?b=1;c=$(x)"]).arguments == ["https://example.org/a?b=1;c=$(x)"])
        #expect(try build(["prog", "{url}"], [.url: "FILE:///tmp/x.pdf"]).arguments == ["FILE:///tmp/x.pdf"])
        for bad in ["javascript:alert(1)", "-https://x", "https://a b", "https://", "https://x\n", "x"] {
            #expect(failure(["prog", "{url}"], [.url: bad]) == .invalidURL(bad))
        }
    }

    @Test("DOIs must look like 10.NNNN/suffix; a resolver prefix is taken off")
    func dois() throws {
        #expect(try build(["prog", "https://doi.org/{doi}"], [.doi: "10.1145/357766.357772"]).arguments == ["https://doi.org/10.1145/357766.357772"])
        #expect(try build(["prog", "https://doi.org/{doi}"], [.doi: "https://doi.org/10.1000/xyz"]).arguments == ["https://doi.org/10.1000/xyz"])
        #expect(try build(["prog", "{doi}"], [.doi: "doi:10.1000.10/a;b"]).arguments == ["10.1000.10/a;b"])
        for bad in ["10.1145", "10.1145/", "10.ab/x", "11.1/x", "10.1145/ x", "-10.1/x", "10..1/x"] {
            #expect(failure(["prog", "{doi}"], [.doi: bad]) == .invalidDOI(bad))
        }
    }

    @Test("links are bibread: links")
    func links() throws {
        #expect(try build(["prog", "{link}"], [.link: "bibread://open?refs=[knuth84:12]"]).arguments == ["bibread://open?refs=[knuth84:12]"])
        #expect(failure(["prog", "{link}"], [.link: "-bibread://x"]) == .invalidLink("-bibread://x"))
        #expect(failure(["prog", "{link}"], [.link: "bibread://a b"]) == .invalidLink("bibread://a b"))
    }

    @Test("keys hold no control characters")
    func keyControlCharacters() {
        #expect(failure(["prog", "{key}"], [.key: "a\nb"]) == .containsControlCharacter(.key))
        #expect(failure(["prog", "{key}"], [.key: ""]) == .emptyValue(.key))
    }

    @Test("standard input is the filled template, as UTF-8; {text} is the page text")
    func standardInput() throws {
        let command = try build(["prog"], stdin: "{text}", [.pageText: "Über; $(rm -rf ~)\n"])
        #expect(command.standardInput == Array("Über; $(rm -rf ~)\n".utf8))
        #expect(try build(["prog"], stdin: "[{key}]", [.key: "-rf"]).standardInput == Array("[-rf]".utf8), "no option rule on stdin")
        #expect(try build(["prog"], stdin: "{bibtex}", [.bibtex: ""]).standardInput == [])
        var values = HandlerValues([.text: "via text"])
        #expect(values[.pageText] == "via text")
        #expect(values.available == [.pageText])
        values[.pageText] = "replaced"
        #expect(values[.text] == "replaced")
    }

    @Test("a missing value, a bad template or an OSC 52 entry is an error, not a half-built command")
    func otherErrors() throws {
        #expect(failure(["prog", "https://doi.org/{doi}"], [:]) == .missingValue(.doi))
        #expect(failure(["prog", "{nope}"], [:]) == .invalidTemplate("{nope}", .unknownPlaceholder("nope")))
        let osc = HandlerEntry(id: "c", name: "c", argv: [], standardInput: "{key}", intentions: [.cite], style: .osc52)
        #expect(throws: SubstitutionError.noProgram(id: "c")) {
            try CommandBuilder.command(for: osc, values: HandlerValues([.key: "k"]), executable: "/bin/true")
        }
        #expect(try CommandBuilder.standardInputText(for: osc, values: HandlerValues([.key: "knuth84"])) == "knuth84")
    }

    @Test("literal braces are written doubled")
    func literalBraces() throws {
        #expect(try build(["prog", "{{{key}}}"], [.key: "k"]).arguments == ["{k}"])
    }
}
