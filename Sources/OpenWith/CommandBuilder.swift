import BibreadValues

/// Builds the argv and standard input of a handler from its templates, safely.
///
/// Nothing is ever given to a shell, so `;`, `$(…)`, backticks and spaces in a value are plain
/// characters. The rules that remain:
/// - each template argument stays exactly one argument, whatever the values hold;
/// - a value holding NUL is refused, and values are capped (``argumentValueLimit`` in an
///   argument, ``standardInputLimit`` on standard input);
/// - a value that begins an argument and starts with `-` or `+` would be read as an option (a
///   file named `--help`, a key `-rf`, `+cmd` for less or vi): a file name gets `./` before it,
///   any other value is refused;
/// - `{page}` is digits; `{url}` an `http`, `https`, `ftp` or `file` URL; `{doi}` a DOI
///   (`10.NNNN/suffix`; a `https://doi.org/` or `doi:` prefix is taken off); `{link}` a
///   `bibread:` link; none of these holds whitespace. `{key}` holds no control characters.
public enum CommandBuilder {
    /// The most a value may hold inside an argument, in bytes of UTF-8.
    public static let argumentValueLimit = 64 * 1024
    /// The most one argument may hold, in bytes of UTF-8 (Linux's MAX_ARG_STRLEN, less its NUL).
    public static let argumentLimit = 128 * 1024 - 1
    /// The most standard input may hold, in bytes of UTF-8.
    public static let standardInputLimit = 16 * 1024 * 1024

    /// The command for `entry` with `values`, running `executable` (resolved by the caller:
    /// see ``Launcher/resolveProgram(of:path:environment:)``).
    public static func command(for entry: HandlerEntry, values: HandlerValues, executable: String)
        throws(SubstitutionError) -> PreparedCommand
    {
        guard entry.style != .osc52, !entry.argv.isEmpty else { throw .noProgram(id: entry.id) }
        var arguments: [String] = []
        for template in entry.argv.dropFirst() {
            arguments.append(try argument(from: template, values: values))
        }
        let input = try standardInputText(for: entry, values: values)
        return PreparedCommand(executable: executable, arguments: arguments, standardInput: input.map { Array($0.utf8) })
    }

    /// The text for the entry's standard input (for an OSC 52 entry, the text it copies); nil
    /// when it has no `stdin` template.
    public static func standardInputText(for entry: HandlerEntry, values: HandlerValues) throws(SubstitutionError) -> String? {
        guard let text = entry.standardInput else { return nil }
        let template = try parsedTemplate(text)
        var result = ""
        for segment in template.segments {
            switch segment {
            case .literal(let literal):
                result += literal
            case .placeholder(let placeholder):
                guard let value = values[placeholder] else { throw .missingValue(placeholder) }
                result += try checked(value, for: placeholder, limit: standardInputLimit)
            }
            if result.utf8.count > standardInputLimit { throw .standardInputTooLong(limit: standardInputLimit) }
        }
        return result
    }

    /// A template, or the error that names it.
    private static func parsedTemplate(_ text: String) throws(SubstitutionError) -> Template {
        do {
            return try Template(parsing: text)
        } catch {
            throw .invalidTemplate(text, error)
        }
    }

    /// One argument from its template.
    static func argument(from text: String, values: HandlerValues) throws(SubstitutionError) -> String {
        let template = try parsedTemplate(text)
        var result = ""
        for (index, segment) in template.segments.enumerated() {
            switch segment {
            case .literal(let literal):
                result += literal
            case .placeholder(let placeholder):
                guard let raw = values[placeholder] else { throw .missingValue(placeholder) }
                var value = try checked(raw, for: placeholder, limit: argumentValueLimit)
                if index == 0, let first = value.unicodeScalars.first, first == "-" || first == "+" {
                    guard placeholder == .file else { throw .wouldBeOption(placeholder, value: value) }
                    value = "./" + value
                }
                result += value
            }
        }
        if result.utf8.count > argumentLimit { throw .argumentTooLong(limit: argumentLimit) }
        return result
    }

    /// The value, checked for its placeholder (and a DOI without its resolver prefix).
    static func checked(_ value: String, for placeholder: Placeholder, limit: Int) throws(SubstitutionError) -> String {
        if value.utf8.contains(0) { throw .containsNUL(placeholder) }
        if value.utf8.count > limit { throw .tooLong(placeholder, limit: limit) }
        switch placeholder {
        case .page:
            guard !value.isEmpty, value.utf8.count <= 9, value.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw .invalidPage(value)
            }
        case .url:
            let lower = value.lowercased()
            let scheme = ["http://", "https://", "ftp://", "file://"].first { lower.hasPrefix($0) }
            guard let scheme, value.utf8.count > scheme.utf8.count, !hasSpaceOrControl(value) else { throw .invalidURL(value) }
        case .doi:
            let doi = withoutResolver(value)
            guard isDOI(doi) else { throw .invalidDOI(value) }
            return doi
        case .link:
            guard value.lowercased().hasPrefix("bibread:"), !hasSpaceOrControl(value) else { throw .invalidLink(value) }
        case .key:
            if value.isEmpty { throw .emptyValue(placeholder) }
            if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw .containsControlCharacter(placeholder)
            }
        case .file:
            if value.isEmpty { throw .emptyValue(placeholder) }
        case .text, .pageText, .bibtex:
            break
        }
        return value
    }

    private static func hasSpaceOrControl(_ value: String) -> Bool {
        value.unicodeScalars.contains { $0.properties.isWhitespace || $0.properties.generalCategory == .control }
    }

    private static func withoutResolver(_ value: String) -> String {
        let lower = value.lowercased()
        for prefix in ["https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/", "doi:"]
        where lower.hasPrefix(prefix) {
            return String(value.dropFirst(prefix.count))
        }
        return value
    }

    /// `10.` then digits (dot-separated groups), `/`, and a suffix without whitespace.
    private static func isDOI(_ value: String) -> Bool {
        guard value.hasPrefix("10."), let slash = value.firstIndex(of: "/") else { return false }
        let registrant = value[value.index(value.startIndex, offsetBy: 3)..<slash]
        let groups = registrant.split(separator: ".", omittingEmptySubsequences: false)
        guard groups.allSatisfy({ !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }) else { return false }
        let suffix = value[value.index(after: slash)...]
        return !suffix.isEmpty && !hasSpaceOrControl(String(suffix))
    }
}
