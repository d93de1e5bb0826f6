import CPoppler

/// The poppler-glib library, opened on first use.
public enum Poppler {
    /// Opens poppler-glib if it is not open yet.
    public static func ensureLoaded() throws {
        if let reason = cpoppler_load() { throw PDFError.libraryUnavailable(String(cString: reason)) }
    }

    /// Starts opening poppler-glib on a thread of its own and returns at once: a command that
    /// will read a PDF calls this first, so that loading poppler and its ~40 libraries overlaps
    /// its argument parsing and the library load; `ensureLoaded()` waits for it.
    public static func startLoading() {
        cpoppler_start_loading()
    }

    /// The poppler version, such as `22.12.0`.
    public static var version: String {
        get throws {
            try ensureLoaded()
            return cpoppler_version().map { String(cString: $0) } ?? "unknown"
        }
    }
}
