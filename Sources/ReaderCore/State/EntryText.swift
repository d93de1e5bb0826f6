import BibModel

/// One reference's text in `$EDITOR`: as its file has it, and as the user last saved it.
public struct EntryText: Sendable, Equatable {
    public let address: EntryAddress
    /// The library file the reference is in.
    public let path: String
    /// The entry's text in the file (what the edit is compared with).
    public let original: String
    /// The text to open the editor on: the original, or the user's last try.
    public let text: String
    /// Why the last try was refused (`entry.bib:3:12: …`), shown at the top of the file.
    public let problem: String?

    /// The name of the editor's file (the cite key, made safe for a file name, and `.bib`).
    public var fileName: String {
        let safe = address.text.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" }
        return String(safe.prefix(64)) + ".bib"
    }

    public init(address: EntryAddress, path: String, original: String, text: String, problem: String? = nil) {
        self.address = address
        self.path = path
        self.original = original
        self.text = text
        self.problem = problem
    }
}
