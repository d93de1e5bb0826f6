import Foundation
import PropertyList

/// Decodes BibDesk's `Bdsk-File-N`: base64 of a binary plist that is either a plain dictionary
/// with `relativePath` or an NSKeyedArchiver archive whose root holds it.
public enum BibDeskFile {
    /// Why a `Bdsk-File-N` value gave no path.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case notBase64
        case notPropertyList(String)
        case noRelativePath

        public var description: String {
            switch self {
            case .notBase64: return "not valid base64"
            case .notPropertyList(let why): return "does not decode to a BibDesk file record: \(why)"
            case .noRelativePath: return "BibDesk file record has no relativePath (only alias data, which only macOS can resolve)"
            }
        }
    }

    /// The `relativePath` stored in a `Bdsk-File-N` value.
    public static func relativePath(fromBase64 text: String) -> Result<String, Problem> {
        let compact = text.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact, options: .ignoreUnknownCharacters) else { return .failure(.notBase64) }
        let bytes = [UInt8](data)
        guard bytes.starts(with: Array("bplist".utf8)) else { return .failure(.notPropertyList("not a binary property list")) }
        let plist: PropertyListValue
        do {
            plist = try BinaryPropertyList.parse(bytes, limits: limits)
        } catch {
            return .failure(.notPropertyList(error.description))
        }
        if let path = plist["relativePath"]?.string { return .success(path) }
        if let archive = KeyedArchive(plist), let root = archive.root,
           let path = archive.value(forKey: "relativePath", in: root)?.string {
            return .success(path)
        }
        return .failure(.noRelativePath)
    }

    /// A file record is a small archive: a few levels and a few dozen objects.
    private static let limits = PropertyListLimits(maxDepth: 64, maxValues: 100_000, maxBytes: 1 << 20)
}
