import CPoppler

/// The poppler-glib library, opened on first use.
public enum Poppler {
    /// Opens poppler-glib if it is not open yet.
    public static func ensureLoaded() throws {
        if let reason = cpoppler_load() { throw PDFError.libraryUnavailable(String(cString: reason)) }
    }

    /// The poppler version, such as `22.12.0`.
    public static var version: String {
        get throws {
            try ensureLoaded()
            return cpoppler_version().map { String(cString: $0) } ?? "unknown"
        }
    }
}
