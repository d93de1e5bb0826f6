import BibModel
import BibreadValues
import OpenWith
import Testing

@Suite("Handler registry")
struct RegistryTests {
    @Test("the shipped registry loads without a problem and has every required entry")
    func shippedRegistryLoads() throws {
        let (registry, problems) = HandlerRegistry.load(user: nil, userPath: "config.toml")
        #expect(problems == [])
        let ids = registry.entries.map(\.id)
        for id in ["zathura", "evince", "okular", "mupdf", "xdg-open", "browser-doi", "browser-url",
                   "copy-key-osc52", "copy-bibtex-osc52", "copy-link-osc52",
                   "copy-key-wl-copy", "copy-bibtex-wl-copy", "copy-link-wl-copy",
                   "copy-key-xclip", "copy-bibtex-xclip", "copy-link-xclip",
                   "copy-key-xsel", "copy-bibtex-xsel", "copy-link-xsel", "espeak-ng", "pager"] {
            #expect(ids.contains(id), "missing \(id)")
        }
        #expect(Set(ids).count == ids.count, "ids are unique")
        for entry in registry.entries {
            #expect(entry.validationProblems == [], "\(entry.id)")
        }
    }

    @Test("shipped entries say what the issue asks for")
    func shippedEntriesAreRight() throws {
        let registry = shippedRegistry()
        let zathura = try #require(registry.entry(id: "zathura"))
        #expect(zathura.argv == ["zathura", "--page={page}", "{file}"])
        #expect(zathura.intentions == [.read, .study])
        #expect(zathura.style == .detached)
        #expect(zathura.package == "zathura")
        #expect(registry.entry(id: "evince")?.argv == ["evince", "--page-index={page}", "{file}"])
        #expect(registry.entry(id: "okular")?.argv == ["okular", "-p", "{page}", "{file}"])
        #expect(registry.entry(id: "mupdf")?.argv == ["mupdf", "{file}", "{page}"])
        #expect(registry.entry(id: "xdg-open")?.argv == ["xdg-open", "{file}"])
        let doi = try #require(registry.entry(id: "browser-doi"))
        #expect(doi.argv == ["xdg-open", "https://doi.org/{doi}"])
        #expect(doi.programVariable == "BROWSER")
        #expect(doi.placeholders == [.doi])
        let osc = try #require(registry.entry(id: "copy-key-osc52"))
        #expect(osc.style == .osc52 && osc.alwaysShow && osc.argv.isEmpty && osc.standardInput == "{key}")
        #expect(registry.entry(id: "copy-bibtex-xclip")?.argv == ["xclip", "-selection", "clipboard"])
        #expect(registry.entry(id: "copy-bibtex-xclip")?.placeholders == [.bibtex])
        #expect(registry.entry(id: "copy-link-xsel")?.argv == ["xsel", "--clipboard", "--input"])
        let speech = try #require(registry.entry(id: "espeak-ng"))
        #expect(speech.argv == ["espeak-ng", "--stdin"])
        #expect(speech.style == .background && speech.alwaysShow && speech.package == "espeak-ng")
        #expect(speech.placeholders == [.pageText])
        #expect(registry.entries(for: .listen).map(\.id) == ["espeak-ng"])
        let pager = try #require(registry.entry(id: "pager"))
        #expect(pager.style == .terminal && pager.programVariable == "PAGER" && pager.argv == ["less"])
        #expect(registry.entries(for: .cite).allSatisfy { $0.id.hasPrefix("copy-") })
        #expect(registry.entries(for: nil).count == registry.entries.count)
    }

    @Test("a user entry with a shipped id replaces it in place")
    func overrideById() throws {
        let shipped = shippedRegistry()
        let registry = shippedRegistry(user: """
        library = "refs.bib"

        [[handler]]
        id = "zathura"
        name = "My zathura"
        argv = ["zathura", "-P", "{page}", "{file}"]
        intentions = ["study"]
        style = "detached"

        [keys]
        move-down = ["j"]
        """)
        let zathura = try #require(registry.entry(id: "zathura"))
        #expect(zathura.name == "My zathura")
        #expect(zathura.argv == ["zathura", "-P", "{page}", "{file}"])
        #expect(zathura.intentions == [.study])
        #expect(zathura.package == "zathura", "fields left out come from the shipped entry")
        #expect(registry.entries.map(\.id) == shipped.entries.map(\.id), "same place, nothing added")
    }

    @Test("a partial override changes only what it names")
    func partialOverride() throws {
        let registry = shippedRegistry(user: """
        [[handler]]
        id = "evince"
        always_show = true
        """)
        let shipped = try #require(shippedRegistry().entry(id: "evince"))
        var expected = shipped
        expected.alwaysShow = true
        #expect(registry.entry(id: "evince") == expected)
    }

    @Test("disabled = true removes a shipped entry")
    func disabledRemoves() {
        let registry = shippedRegistry(user: """
        [[handler]]
        id = "okular"
        disabled = true
        """)
        #expect(registry.entry(id: "okular") == nil)
        #expect(registry.entry(id: "evince") != nil)
    }

    @Test("a new user entry comes after the shipped ones")
    func newEntryAppended() throws {
        let registry = shippedRegistry(user: """
        [[handler]]
        id = "sioyek"
        name = "Sioyek"
        argv = ["sioyek", "--page", "{page}", "{file}"]
        intentions = ["read"]
        package = "sioyek"
        """)
        let entry = try #require(registry.entries.last)
        #expect(entry == HandlerEntry(id: "sioyek", name: "Sioyek", argv: ["sioyek", "--page", "{page}", "{file}"],
                                      intentions: [.read], style: .detached, package: "sioyek"))
    }

    @Test("a malformed user entry is reported at its place and the rest still loads")
    func malformedEntryReported() throws {
        let (registry, problems) = HandlerRegistry.load(user: """
        [[handler]]
        id = "good"
        argv = ["good", "{file}"]
        intentions = ["read"]

        [[handler]]
        id = "bad"
          argv = ["bad", "{nope}"]
        intentions = ["read"]
        """, userPath: "/home/u/.config/bibread/config.toml")
        #expect(problems.count == 1)
        let problem = try #require(problems.first)
        #expect(problem.hasPrefix("/home/u/.config/bibread/config.toml:8:3: handler 'bad': argument '{nope}': unknown placeholder {nope}"))
        #expect(problem.hasSuffix("(the table is skipped)"))
        #expect(registry.entry(id: "bad") == nil)
        #expect(registry.entry(id: "good")?.argv == ["good", "{file}"])
        #expect(registry.entry(id: "zathura") != nil)
    }

    @Test("a broken override keeps the shipped entry")
    func brokenOverrideKeepsShipped() throws {
        let (registry, problems) = HandlerRegistry.load(user: """
        [[handler]]
        id = "zathura"
        style = "sideways"
        """, userPath: "u.toml")
        #expect(problems == ["u.toml:3:1: handler 'zathura': unknown style 'sideways' (known: detached, terminal, background, quick, osc52) (the table is skipped; the entry it overrides stays)"])
        #expect(registry.entry(id: "zathura") == shippedRegistry().entry(id: "zathura"))
    }

    @Test("a TOML syntax error is reported with TOMLKit's place; the shipped entries still load")
    func syntaxError() throws {
        let (registry, problems) = HandlerRegistry.load(user: "[[handler]]\nid = \"x\nargv = []\n", userPath: "u.toml")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("u.toml:2:") == true, "\(problems)")
        #expect(registry.entries == shippedRegistry().entries)
    }

    @Test("each kind of mistake is caught at load time", arguments: [
        ("argv = [\"p\", \"{page\"]\nintentions = [\"read\"]", "u.toml:3:1: handler 'x': argument '{page': '{' is not closed by '}'"),
        ("argv = [\"p\", \"page}\"]\nintentions = [\"read\"]", "u.toml:3:1: handler 'x': argument 'page}': '}' has no '{' before it"),
        ("argv = []\nintentions = [\"read\"]", "u.toml:3:1: handler 'x': argv is empty"),
        ("argv = [\"{file}\"]\nintentions = [\"read\"]", "u.toml:3:1: handler 'x': the program (argv's first element) may not contain placeholders"),
        ("argv = [\"p\"]\nintentions = [\"skim\"]", "u.toml:4:1: handler 'x': unknown intention 'skim'"),
        ("argv = [\"p\"]", "u.toml:1:1: handler 'x': it serves no intention"),
        ("argv = \"p {file}\"\nintentions = [\"read\"]", "u.toml:3:1: handler 'x': argv must be a list of strings"),
        ("argv = [\"p\"]\nstdin = \"{key}\"\nintentions = [\"cite\"]", "u.toml:4:1: handler 'x': a detached handler gets no standard input"),
        ("argv = [\"p\"]\nstyle = \"osc52\"\nstdin = \"{key}\"\nintentions = [\"cite\"]", "u.toml:3:1: handler 'x': an osc52 handler runs no program"),
        ("style = \"osc52\"\nintentions = [\"cite\"]", "u.toml:1:1: handler 'x': an osc52 handler needs stdin"),
        ("argv = [\"p\"]\nintentions = [\"read\"]\npackage = \"Not A Package\"", "u.toml:5:1: handler 'x': 'Not A Package' is not a Debian package name"),
        ("argv = [\"p\"]\nintentions = [\"read\"]\nalways_show = \"yes\"", "u.toml:5:1: handler 'x': always_show must be true or false"),
    ])
    func mistakes(body: String, expected: String) throws {
        let (registry, problems) = HandlerRegistry.load(user: "[[handler]]\nid = \"x\"\n\(body)\n", userPath: "u.toml")
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.hasPrefix(expected) == true, "\(problems)")
        #expect(registry.entry(id: "x") == nil)
    }

    @Test("one pass reports every mistake of a table")
    func everyMistakeAtOnce() {
        let (_, problems) = HandlerRegistry.load(user: """
        [[handler]]
        id = "x"
        argv = ["p", "{nope}"]
        intentions = ["read", "skim"]
        stdin = "{key}"
        """, userPath: "u.toml")
        #expect(problems.map { $0.prefix(while: { $0 != "'" }) } == [
            "u.toml:4:1: handler ", "u.toml:3:1: handler ", "u.toml:5:1: handler ",
        ], "\(problems)")
        #expect(problems[0].contains("unknown intention 'skim'"))
        #expect(problems[1].contains("unknown placeholder {nope}"))
        #expect(problems[2].contains("a detached handler gets no standard input"))
    }

    @Test("a second table with an id applies on top of the first")
    func repeatedId() throws {
        let (registry, problems) = HandlerRegistry.load(user: """
        [[handler]]
        id = "x"
        argv = ["p"]
        intentions = ["read"]

        [[handler]]
        id = "x"
        name = "Second"
        """, userPath: "u.toml")
        #expect(problems == ["u.toml:7:1: handler 'x': an earlier table has this id too; this one applies on top of it"])
        #expect(registry.entry(id: "x") == HandlerEntry(id: "x", name: "Second", argv: ["p"], intentions: [.read], style: .detached))
    }

    @Test("an unknown key is reported but the entry loads")
    func unknownKey() throws {
        let (registry, problems) = HandlerRegistry.load(user: """
        [[handler]]
        id = "x"
        argv = ["p"]
        intentions = ["read"]
        alway_show = true
        """, userPath: "u.toml")
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("u.toml:5:1: handler 'x': unknown key 'alway_show' is ignored") == true, "\(problems)")
        #expect(registry.entry(id: "x") != nil)
    }

    @Test("without headers to point at (an inline array), problems name the entry")
    func inlineTablesHaveNoPlace() {
        let (registry, problems) = HandlerRegistry.load(user: """
        handler = [{ id = "x", argv = ["p", "{oops}"], intentions = ["read"] }, { intentions = ["read"] }]
        """, userPath: "u.toml")
        #expect(problems.count == 2)
        #expect(problems.first?.hasPrefix("u.toml: handler 'x': argument '{oops}': unknown placeholder {oops}") == true, "\(problems)")
        #expect(problems.last == "u.toml: handler #2: it has no id (the table is skipped)")
        #expect(registry.entries == shippedRegistry().entries)
    }

    @Test("disabling an unknown id is reported")
    func disablingUnknown() {
        let (_, problems) = HandlerRegistry.load(user: "[[handler]]\nid = \"nothing\"\ndisabled = true\n", userPath: "u.toml")
        #expect(problems == ["u.toml:3:1: handler 'nothing': it disables 'nothing', which is not a handler"])
    }

    @Test("{text} is read as {pagetext}")
    func textIsPageText() throws {
        let entry = HandlerEntry(id: "x", name: "x", argv: ["p", "--say={text}"], standardInput: "{pagetext}",
                                 intentions: [.listen], style: .background)
        #expect(entry.placeholders == [.pageText])
        #expect(Placeholder.text.canonical == .pageText)
        #expect(Placeholder.pageText.spelling == "{pagetext}")
    }
}
