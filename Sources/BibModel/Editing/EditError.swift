import Foundation

/// Why an edit was refused. Nothing is written when one is thrown; `description` says what and
/// why, in words for the user.
public struct EditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of refusal, for callers that act on them.
    public enum Reason: Sendable, Equatable {
        /// The library is a Zotero export: Zotero writes it again, and an edit would be lost.
        case readOnly
        /// No entry has this address.
        case unknownEntry
        /// No static (BibDesk) or explicit (JabRef) group has this name.
        case unknownGroup
        /// The entry's text could not be read as the parser read it (an unclosed value).
        case unreadableEntry
        /// A value cannot be written in the file's encoding.
        case unencodable
        /// A value is not valid BibTeX (unbalanced braces, a line that starts an entry).
        case invalidValue
        /// A field name, keyword or rating is not valid.
        case invalidArgument
        /// The bytes given are not the ones the library was read from.
        case staleFile
        /// The edited file did not re-read as the old one plus the edit.
        case checkFailed
    }

    public let reason: Reason
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = TerminalText.cleanedLine(message)
    }

    public var description: String { message }
}
