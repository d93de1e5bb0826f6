import BibreadValues

/// Why a handler's command could not be built from the values given.
public enum SubstitutionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The template uses a placeholder that has no value (no DOI for this reference).
    case missingValue(Placeholder)
    /// The value is empty where a value is needed (an empty file name).
    case emptyValue(Placeholder)
    /// The value holds a NUL byte, which no argument or C string can carry.
    case containsNUL(Placeholder)
    /// The value holds a control character where none belongs (a newline in a key).
    case containsControlCharacter(Placeholder)
    /// The value is longer than the limit (bytes of UTF-8).
    case tooLong(Placeholder, limit: Int)
    /// A whole argument would be longer than the kernel takes (bytes of UTF-8).
    case argumentTooLong(limit: Int)
    /// The standard input would be longer than the limit (bytes of UTF-8).
    case standardInputTooLong(limit: Int)
    /// The value begins an argument and starts with `-` or `+`: the program would read it as an option.
    case wouldBeOption(Placeholder, value: String)
    /// `{page}` is not a page number (digits only).
    case invalidPage(String)
    /// `{url}` is not an `http`, `https`, `ftp` or `file` URL without spaces.
    case invalidURL(String)
    /// `{doi}` is not a DOI (`10.NNNN/suffix`, no spaces).
    case invalidDOI(String)
    /// `{link}` is not a `bibread:` link without spaces.
    case invalidLink(String)
    /// A template of the entry is malformed.
    case invalidTemplate(String, TemplateError)
    /// The entry has no program to run (OSC 52 entries are written to the terminal instead).
    case noProgram(id: String)

    /// The problem as a sentence for messages.
    public var description: String {
        switch self {
        case .missingValue(let placeholder):
            return "there is no value for \(placeholder.spelling)"
        case .emptyValue(let placeholder):
            return "the value for \(placeholder.spelling) is empty"
        case .containsNUL(let placeholder):
            return "the value for \(placeholder.spelling) contains a NUL byte"
        case .containsControlCharacter(let placeholder):
            return "the value for \(placeholder.spelling) contains a control character"
        case .tooLong(let placeholder, let limit):
            return "the value for \(placeholder.spelling) is longer than \(limit) bytes"
        case .argumentTooLong(let limit):
            return "an argument would be longer than \(limit) bytes"
        case .standardInputTooLong(let limit):
            return "the standard input would be longer than \(limit) bytes"
        case .wouldBeOption(let placeholder, let value):
            return "the \(placeholder.noun) '\(SubstitutionError.abbreviated(value))' would be read as an option"
        case .invalidPage(let value):
            return "'\(SubstitutionError.abbreviated(value))' is not a page number"
        case .invalidURL(let value):
            return "'\(SubstitutionError.abbreviated(value))' is not an http, https, ftp or file URL"
        case .invalidDOI(let value):
            return "'\(SubstitutionError.abbreviated(value))' is not a DOI (10.NNNN/…)"
        case .invalidLink(let value):
            return "'\(SubstitutionError.abbreviated(value))' is not a bibread: link"
        case .invalidTemplate(let template, let error):
            return "the template '\(template)' is malformed: \(error)"
        case .noProgram(let id):
            return "handler '\(id)' runs no program"
        }
    }

    /// A value as shown in a message: at most 60 characters, control characters escaped.
    static func abbreviated(_ value: String) -> String {
        let shown = value.count > 60 ? String(value.prefix(57)) + "…" : value
        return shown.unicodeScalars.map { scalar in
            scalar.properties.generalCategory == .control ? scalar.escaped(asASCII: true) : String(scalar)
        }.joined()
    }
}

extension Placeholder {
    /// What the value is, in a sentence: "key", "file name".
    var noun: String {
        switch self {
        case .file: return "file name"
        case .page: return "page"
        case .url: return "URL"
        case .doi: return "DOI"
        case .key: return "key"
        case .link: return "link"
        case .text, .pageText: return "page text"
        case .bibtex: return "BibTeX entry"
        }
    }
}
