import Foundation
import PropertyList

/// The binary plist reader (see `PropertyList.BinaryPropertyList`), under the name BibModel has
/// always offered it.
public typealias BinaryPropertyList = PropertyList.BinaryPropertyList
/// A property-list value (see `PropertyList.PropertyListValue`).
public typealias PropertyListValue = PropertyList.PropertyListValue
/// Why a property list could not be read (see `PropertyList.PropertyListError`).
public typealias PropertyListError = PropertyList.PropertyListError

/// A file a reference points at, resolved to an absolute path.
public struct LinkedFile: Sendable, Hashable {
    /// The absolute path, NFC-normalised (a Windows path stays as written).
    public let path: String
    /// The label JabRef keeps with a file (`Full text`), if any.
    public let label: String?
    /// The file type JabRef or Zotero keeps (`PDF`, `application/pdf`), if any.
    public let fileType: String?
    /// The field the link came from (lower case: `bdsk-file-1`, `file`, `pdf`).
    public let field: String

    public init(path: String, label: String?, fileType: String?, field: String) {
        self.path = path
        self.label = label
        self.fileType = fileType
        self.field = field
    }

    /// True when the file looks like a PDF by its name or declared type.
    public var isPDF: Bool {
        path.lowercased().hasSuffix(".pdf") || fileType?.lowercased().contains("pdf") == true
    }
}

extension Entry {
    /// Linked files (BibDesk `Bdsk-File-N`, JabRef/Zotero/Mendeley `file`, `pdf`, `local-url`) and
    /// web links (`url`, `Bdsk-Url-N`, `doi`, arXiv `eprint`), resolved against the .bib's folder.
    public var links: Links {
        var links = Links()
        collectLinks(into: &links, webLinks: true)
        if let doi = decoded(.doi), !doi.isEmpty {
            links.appendURL(LinkPaths.doiURL(doi))
        }
        if let arXiv = arXivIdentifier {
            links.appendURL("https://arxiv.org/abs/\(arXiv)")
        }
        return links
    }

    /// The linked files alone (`links.files`, in the same order), without decoding the web
    /// links: what counting the references with a PDF needs for each of them.
    public var linkedFiles: [LinkedFile] {
        var links = Links()
        collectLinks(into: &links, webLinks: false)
        return links.files
    }

    /// The files (and problems) of the link fields, and the web links among them when `webLinks`.
    private func collectLinks(into links: inout Links, webLinks: Bool) {
        let base = source.directory
        for field in fields {
            if field.kind.isBibDeskFile {
                switch BibDeskFile.relativePath(fromBase64: rawText(of: field)) {
                case .success(let relative):
                    links.files.append(LinkedFile(path: LinkPaths.resolve(relative, against: base), label: nil, fileType: nil,
                                                  field: name(of: field)))
                case .failure(let problem):
                    links.problems.append(LinkProblem(field: spelledName(of: field), message: problem.description))
                }
            } else if field.kind.isBibDeskURL || field.kind.known == .url {
                guard webLinks else { continue }
                let url = decodedText(of: field)
                if !url.isEmpty { links.appendURL(url) }
            } else if field.kind.isFileList {
                let fieldName = name(of: field)
                for item in FileFieldParser.items(rawText(of: field)) {
                    switch item {
                    case .url(let url):
                        if webLinks { links.appendURL(url) }
                    case .file(let path, let label, let type):
                        links.files.append(LinkedFile(path: LinkPaths.resolve(path, against: base), label: label, fileType: type, field: fieldName))
                    }
                }
            }
        }
    }
}
