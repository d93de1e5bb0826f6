/// The registry shipped with bibread, as TOML text (a Swift constant: no resource bundle).
///
/// Each `[[handler]]` table: `id`, `name`, `argv` (the program, then argument templates),
/// optionally `stdin` (a template written to standard input), `intentions`, `style`
/// (`detached`, `terminal`, `background`, `quick`, `osc52`), `package` (the Debian package, for
/// the install hint), `always_show`, and `program_env` (an environment variable naming a program
/// that replaces `argv[0]` when set, such as `BROWSER`). Placeholders: `{file}`, `{page}`,
/// `{url}`, `{doi}`, `{key}`, `{link}`, `{bibtex}`, `{pagetext}` (also spelled `{text}`).
///
/// Page numbers are 1-based physical pages: zathura's `--page`, evince's `--page-index` (not
/// `--page-label`, which takes the printed label such as `iv`), okular's `-p` and mupdf's
/// trailing page argument all take that number.
public enum BuiltinHandlers {
    /// Where problems in the shipped registry say they are.
    public static let path = "<built-in handlers>"

    /// The shipped registry.
    public static let toml = #"""
    # PDF viewers, at the page.
    [[handler]]
    id = "zathura"
    name = "Zathura, at the page"
    argv = ["zathura", "--page={page}", "{file}"]
    intentions = ["read", "study"]
    style = "detached"
    package = "zathura"

    [[handler]]
    id = "evince"
    name = "Evince (GNOME Document Viewer), at the page"
    argv = ["evince", "--page-index={page}", "{file}"]
    intentions = ["read", "study"]
    style = "detached"
    package = "evince"

    [[handler]]
    id = "okular"
    name = "Okular, at the page"
    argv = ["okular", "-p", "{page}", "{file}"]
    intentions = ["read", "study"]
    style = "detached"
    package = "okular"

    [[handler]]
    id = "mupdf"
    name = "MuPDF, at the page"
    argv = ["mupdf", "{file}", "{page}"]
    intentions = ["read", "study"]
    style = "detached"
    package = "mupdf"

    [[handler]]
    id = "xdg-open"
    name = "The desktop's PDF viewer (xdg-open), first page"
    argv = ["xdg-open", "{file}"]
    intentions = ["read", "study"]
    style = "detached"
    package = "xdg-utils"

    # The browser: $BROWSER when set, else xdg-open.
    [[handler]]
    id = "browser-doi"
    name = "The publisher's page, by DOI, in the browser"
    argv = ["xdg-open", "https://doi.org/{doi}"]
    program_env = "BROWSER"
    intentions = ["read", "study"]
    style = "detached"
    package = "xdg-utils"

    [[handler]]
    id = "browser-url"
    name = "The reference's URL in the browser"
    argv = ["xdg-open", "{url}"]
    program_env = "BROWSER"
    intentions = ["read", "study"]
    style = "detached"
    package = "xdg-utils"

    # The clipboard: the terminal's own (OSC 52, works over SSH), then Wayland and X11 tools.
    [[handler]]
    id = "copy-key-osc52"
    name = "Copy the cite key (terminal clipboard)"
    stdin = "{key}"
    intentions = ["cite"]
    style = "osc52"
    always_show = true

    [[handler]]
    id = "copy-bibtex-osc52"
    name = "Copy the BibTeX entry (terminal clipboard)"
    stdin = "{bibtex}"
    intentions = ["cite"]
    style = "osc52"
    always_show = true

    [[handler]]
    id = "copy-link-osc52"
    name = "Copy the bibread link (terminal clipboard)"
    stdin = "{link}"
    intentions = ["cite", "read", "study"]
    style = "osc52"
    always_show = true

    [[handler]]
    id = "copy-key-wl-copy"
    name = "Copy the cite key (wl-copy)"
    argv = ["wl-copy"]
    stdin = "{key}"
    intentions = ["cite"]
    style = "quick"
    package = "wl-clipboard"

    [[handler]]
    id = "copy-bibtex-wl-copy"
    name = "Copy the BibTeX entry (wl-copy)"
    argv = ["wl-copy"]
    stdin = "{bibtex}"
    intentions = ["cite"]
    style = "quick"
    package = "wl-clipboard"

    [[handler]]
    id = "copy-link-wl-copy"
    name = "Copy the bibread link (wl-copy)"
    argv = ["wl-copy"]
    stdin = "{link}"
    intentions = ["cite", "read", "study"]
    style = "quick"
    package = "wl-clipboard"

    [[handler]]
    id = "copy-key-xclip"
    name = "Copy the cite key (xclip)"
    argv = ["xclip", "-selection", "clipboard"]
    stdin = "{key}"
    intentions = ["cite"]
    style = "quick"
    package = "xclip"

    [[handler]]
    id = "copy-bibtex-xclip"
    name = "Copy the BibTeX entry (xclip)"
    argv = ["xclip", "-selection", "clipboard"]
    stdin = "{bibtex}"
    intentions = ["cite"]
    style = "quick"
    package = "xclip"

    [[handler]]
    id = "copy-link-xclip"
    name = "Copy the bibread link (xclip)"
    argv = ["xclip", "-selection", "clipboard"]
    stdin = "{link}"
    intentions = ["cite", "read", "study"]
    style = "quick"
    package = "xclip"

    [[handler]]
    id = "copy-key-xsel"
    name = "Copy the cite key (xsel)"
    argv = ["xsel", "--clipboard", "--input"]
    stdin = "{key}"
    intentions = ["cite"]
    style = "quick"
    package = "xsel"

    [[handler]]
    id = "copy-bibtex-xsel"
    name = "Copy the BibTeX entry (xsel)"
    argv = ["xsel", "--clipboard", "--input"]
    stdin = "{bibtex}"
    intentions = ["cite"]
    style = "quick"
    package = "xsel"

    [[handler]]
    id = "copy-link-xsel"
    name = "Copy the bibread link (xsel)"
    argv = ["xsel", "--clipboard", "--input"]
    stdin = "{link}"
    intentions = ["cite", "read", "study"]
    style = "quick"
    package = "xsel"

    # Listening: espeak-ng reads the page's text aloud; stopping ends it.
    [[handler]]
    id = "espeak-ng"
    name = "Read the page aloud (espeak-ng)"
    argv = ["espeak-ng", "--stdin"]
    stdin = "{pagetext}"
    intentions = ["listen"]
    style = "background"
    package = "espeak-ng"
    always_show = true

    # The page's text in the pager: $PAGER when set, else less.
    [[handler]]
    id = "pager"
    name = "The page's text in the pager"
    argv = ["less"]
    program_env = "PAGER"
    stdin = "{pagetext}"
    intentions = ["read", "study"]
    style = "terminal"
    package = "less"
    """#
}
