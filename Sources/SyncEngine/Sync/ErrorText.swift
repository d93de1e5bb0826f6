import Foundation
import GRDB
#if canImport(Glibc)
import Glibc
#endif

/// Errors as plain sentences for messages.
public enum ErrorText {
    /// `error` for a message: bibread's own errors say themselves; an error of one of bibread's
    /// SQLite stores (the state store, the full-text index, a cache manifest) says SQLite's own
    /// words and code, not the statement that failed (GRDB's description ends "- while executing
    /// `PRAGMA journal_mode = WAL`"); a file operation's error from Foundation (`CocoaError`,
    /// whose description is a dump of its domain, code and user info) becomes the file and the
    /// system's reason.
    public static func plain(_ error: any Error) -> String {
        if let database = error as? DatabaseError {
            return "\(database.message ?? "an SQLite error") (SQLite error \(database.resultCode.rawValue))"
        }
        guard let cocoa = error as? CocoaError else { return "\(error)" }
        let info = (cocoa as NSError).userInfo
        let path = info[NSFilePathErrorKey] as? String ?? (info[NSURLErrorKey] as? URL)?.path
        let reason: String
        if let underlying = info[NSUnderlyingErrorKey] as? any Error, (underlying as NSError).domain == NSPOSIXErrorDomain {
            reason = String(cString: strerror(Int32((underlying as NSError).code)))
        } else {
            let text = cocoa.localizedDescription
            let generic = "The operation could not be completed. "
            reason = text.hasPrefix(generic) ? String(text.dropFirst(generic.count)) : text
        }
        return path.map { "\($0): \(reason)" } ?? reason
    }
}
