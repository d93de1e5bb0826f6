import Foundation
import PropertyList

/// Why a file could not be read as a library at all.
public struct LoadFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of unreadable file, each with its own message.
    public enum Reason: Sendable, Equatable {
        case missing
        case directory
        case unreadable(String)
        case empty
        case binary
        case noEntries
        case tooLarge
        /// A FIFO, a device or a socket (`kind` says which): never opened so that it could block.
        case notRegularFile(kind: String)

        /// What is wrong with the file, as a sentence about "it" (a downloaded .bib that is
        /// refused says this).
        public var explanation: String {
            switch self {
            case .missing: "it is not there"
            case .directory: "it is a folder, not a file"
            case .unreadable(let why): "it cannot be read: \(why)"
            case .empty: "it is empty: no references"
            case .binary: "it is a binary file, not BibTeX text"
            case .noEntries: "it has no BibTeX entries"
            case .tooLarge: "it is too large (4 GiB or more) to be a BibTeX library"
            case .notRegularFile(let kind): "it is not a regular file (\(kind))"
            }
        }
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .missing: return "\(path): no such file"
        case .directory: return "\(path): is a directory; name the .bib files in it (for example \(path.hasSuffix("/") ? path : path + "/")*.bib)"
        case .unreadable(let why): return "\(path): cannot read: \(why)"
        case .empty: return "\(path): empty file, no references"
        case .binary: return "\(path): binary file, not BibTeX text"
        case .noEntries: return "\(path): no BibTeX entries found"
        case .tooLarge: return "\(path): too large (4 GiB or more) to be a BibTeX library"
        case .notRegularFile(let kind): return "\(path): not a regular file (\(kind))"
        }
    }
}
