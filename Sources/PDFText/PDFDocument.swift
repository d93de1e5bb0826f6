import CPoppler
import DiskIO
import Foundation

/// A PDF opened with poppler-glib; the document is released when the last reference goes.
///
/// A poppler document must not be used from two threads at once, so every call on a
/// `PDFDocument` holds its lock: callers on different queues are safe, and their calls run one
/// after another. To extract pages in parallel, open one `PDFDocument` per thread.
///
/// A page with no text (a scanned or image-only page) gives empty text: callers that need to
/// know check whether `text(ofPage:)`, trimmed of whitespace, is empty.
public final class PDFDocument: @unchecked Sendable {
    // @unchecked Sendable: `document` and `labelCache` are only touched while `lock` is held.
    private let document: OpaquePointer
    private let lock = NSLock()
    private var labelCache: [String]?

    /// The path the document was opened from.
    public let path: String
    /// The number of pages.
    public let pageCount: Int
    /// The identity of the file poppler reads (taken from the descriptor it opens), or nil when
    /// the system would not say.
    public let fileIdentity: FileIdentity?

    /// Opens the PDF at `path`, with an optional password (the user or the owner password).
    /// Only a regular file is opened, and never so that it can block (see `RegularFile`).
    ///
    /// - Throws: `PDFError.encrypted` when the PDF needs a password and none (or an empty one) was
    ///   given, `.wrongPassword` when the password given is wrong, `.notRegularFile` for a FIFO,
    ///   a directory or a device, `.cannotOpen` with the system's or poppler's message when the
    ///   file is missing, unreadable, truncated, damaged or not a PDF, `.noPages` when its page
    ///   tree gives no page count poppler accepts (so that no page can be read), and
    ///   `.libraryUnavailable` when poppler-glib cannot be loaded.
    public init(path: String, password: String? = nil) throws {
        try Poppler.ensureLoaded()
        self.path = path
        let descriptor: Int32
        do {
            descriptor = try RegularFile.openForReading(path)
        } catch {
            throw PDFError(error, path: path)
        }
        fileIdentity = FileIdentity(descriptor: descriptor)
        var status = CPOPPLER_OK
        var message: UnsafeMutablePointer<CChar>?
        guard let handle = cpoppler_document_open_descriptor(descriptor, password, &status, &message) else {
            defer { cpoppler_free(message) }
            if status == CPOPPLER_ERROR_ENCRYPTED {
                // poppler says "encrypted" whether the password is missing or wrong.
                if let password, !password.isEmpty { throw PDFError.wrongPassword(path: path) }
                throw PDFError.encrypted(path: path)
            }
            throw PDFError.cannotOpen(path: path, reason: message.map { String(cString: $0) } ?? "unknown error")
        }
        document = handle
        // poppler takes the page tree's /Count on trust; a count it refuses leaves it no page.
        pageCount = Int(cpoppler_document_page_count(handle))
        // (Every property is set, so throwing runs deinit, which releases the document.)
        guard pageCount > 0 else { throw PDFError.noPages(path: path) }
    }

    deinit {
        cpoppler_document_release(document)
    }

    /// Why the file at `path` does not open as a PDF, as a short phrase without the path; nil
    /// when it opens (an encrypted PDF opens: it only needs a password), and when poppler-glib
    /// is not there to say. A sync passes this to check a download whose length nobody gave.
    public static func openingProblem(path: String) -> String? {
        do {
            _ = try PDFDocument(path: path)
            return nil
        } catch PDFError.cannotOpen(_, let reason) {
            return "poppler cannot open it (\(reason))"
        } catch PDFError.unreadable(_, let reason) {
            return "cannot read it (\(reason))"
        } catch {
            return nil
        }
    }

    /// The document's title from its information dictionary, or nil when it has none.
    public var title: String? {
        locked {
            guard let title = cpoppler_document_title(document) else { return nil }
            defer { cpoppler_free(title) }
            let text = String(cString: title).trimmingCharacters(in: .whitespacesAndNewlines)
            return text.isEmpty ? nil : text
        }
    }

    /// The text of page `number` (1-based) in reading order, as `pdftotext` prints it: blocks in
    /// poppler's reading order, lines ending in a hyphen joined to the next, text outside the
    /// crop box included. An image-only page gives empty (or whitespace-only) text.
    public func text(ofPage number: Int) throws -> String {
        try glyphs(ofPage: number).readingText
    }

    /// The text of page `number` (1-based) in its physical layout, like `pdftotext -layout`:
    /// rows by baseline, words placed in columns by their x position over the page's mean
    /// character width, so that columns stay side by side; no trailing spaces.
    public func layoutText(ofPage number: Int) throws -> String {
        try glyphs(ofPage: number).layoutText
    }

    /// The text of page `number` (1-based) in reading order, ready to be reflowed: a paragraph
    /// on one line, lines that are lines in the PDF (code in a monospace font, lines of a table
    /// of contents, list items, table rows, headings) on lines of their own, a blank line between
    /// paragraphs and blocks (see `PageGlyphs.reflowText`).
    public func reflowText(ofPage number: Int) throws -> String {
        try glyphs(ofPage: number, withFonts: true).reflowText
    }

    /// The text of page `number` (1-based) in `mode`.
    public func text(ofPage number: Int, mode: PageTextMode) throws -> String {
        switch mode {
        case .reading: return try text(ofPage: number)
        case .layout: return try layoutText(ofPage: number)
        case .reflow: return try reflowText(ofPage: number)
        }
    }

    /// Poppler's text of a page and the box of each character (and, `withFonts`, the fonts),
    /// copied out of poppler.
    func glyphs(ofPage number: Int, withFonts: Bool = false) throws -> PageGlyphs {
        try withPage(number) { page in
            var rects: UnsafeMutablePointer<cpoppler_rect>?
            var count: UInt32 = 0
            let text = cpoppler_page_text_with_layout(page, &rects, &count)
            defer {
                cpoppler_free(text)
                cpoppler_free(rects)
            }
            guard let text else { return PageGlyphs(utf8: [], boxes: []) }
            let utf8 = Array(UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self),
                                                 count: strlen(text)))
            let boxes = UnsafeBufferPointer(start: rects, count: rects == nil ? 0 : Int(count))
                .map { GlyphBox(x1: $0.x1, y1: $0.y1, x2: $0.x2, y2: $0.y2) }
            guard withFonts else { return PageGlyphs(utf8: utf8, boxes: boxes) }
            var runCount: Int32 = 0
            let runs = cpoppler_page_text_runs(page, &runCount)
            defer { cpoppler_text_runs_free(runs, runCount) }
            let fonts = UnsafeBufferPointer(start: runs, count: runs == nil ? 0 : Int(runCount)).map { run in
                FontRun(name: run.font_name.map { String(cString: $0) } ?? "", size: run.font_size,
                        first: Int(run.start), last: Int(run.end))
            }
            return PageGlyphs(utf8: utf8, boxes: boxes, fonts: fonts)
        }
    }

    /// Runs `body` with the lock held.
    func locked<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        #if DEBUG
        probe.enter()
        defer { probe.leave() }
        #endif
        return try body()
    }

    #if DEBUG
    /// For tests: the most calls that were ever inside the lock at once (1 while it works:
    /// poppler 22.12 happens not to crash when one document is used from two threads, so the
    /// tests cannot tell a missing lock from the results alone).
    var mostCallsAtOnce: Int { probe.most }
    private let probe = ConcurrencyProbe()
    #endif

    /// Runs `body` with the lock held; the label cache is only read and written in it.
    func withLabelCache<Result>(_ body: (inout [String]?) throws -> Result) rethrows -> Result {
        try locked { try body(&labelCache) }
    }

    /// Runs `body` on page `number` (1-based) with the lock held.
    func withPage<Result>(_ number: Int, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        guard number >= 1 && number <= pageCount else { throw PDFError.pageOutOfRange(page: number, count: pageCount) }
        return try locked {
            try withPageLocked(number, body)
        }
    }

    /// `withPage` for callers that already hold the lock.
    func withPageLocked<Result>(_ number: Int, _ body: (OpaquePointer) throws -> Result) throws -> Result {
        guard let page = cpoppler_document_page(document, Int32(number - 1)) else {
            guard number >= 1 && number <= pageCount else { throw PDFError.pageOutOfRange(page: number, count: pageCount) }
            throw PDFError.missingPage(page: number, claimed: pageCount, readable: readablePageCountLocked(below: number))
        }
        defer { cpoppler_page_release(page) }
        return try body(page)
    }

    /// How many pages poppler can read, when page `missing` is counted by the page tree but not
    /// in it: poppler reads the tree in order, so the pages it can read are 1 to some N, found
    /// by halving (each try after the first is answered from what poppler has read). With the
    /// lock held.
    private func readablePageCountLocked(below missing: Int) -> Int {
        var low = 0, high = missing - 1  // page `low` can be read (0: none known), `high + 1` cannot
        while low < high {
            let middle = (low + high + 1) / 2
            if let page = cpoppler_document_page(document, Int32(middle - 1)) {
                cpoppler_page_release(page)
                low = middle
            } else {
                high = middle - 1
            }
        }
        return low
    }

    /// Runs `body` on the poppler document with the lock held.
    func withDocument<Result>(_ body: (OpaquePointer) throws -> Result) rethrows -> Result {
        try locked { try body(document) }
    }
}

#if DEBUG
#endif
