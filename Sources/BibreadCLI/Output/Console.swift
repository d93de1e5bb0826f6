import Foundation
import BibModel
import DiskIO
#if canImport(Glibc)
import Glibc
#endif

/// Standard output and error, with terminal facts the output format depends on.
enum Console {
    /// True when standard output is a terminal (then output is aligned and cut to its width).
    static var isTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// True when standard error is a terminal (progress bars go there).
    static var isErrorTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The terminal's width in columns: `$COLUMNS`, the tty's size, else 80.
    static var width: Int {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }

    // Everything bibread prints passes through here, and every text is cleaned of control
    // characters on its way (`TerminalText`: tab and line feed stay, the rest shows as `�`), so
    // that nothing read from a file or a server can act on the terminal. Only the bytes of a
    // file format (`writeData`) and bibread's own progress line sequences go out as they are.

    /// Writes text (UTF-8) to standard output, cleaned of control characters; retries short
    /// writes and EINTR.
    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// Writes text (UTF-8) to standard output, cleaned of control characters. JSON comes out
    /// unchanged: `JSONWriter` escapes them all.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        if let cleaned = TerminalText.cleanedUTF8(bytes) {
            cleaned.withUnsafeBufferPointer { writeData($0) }
        } else {
            writeData(bytes)
        }
    }

    /// Writes the bytes of a file format (a binary plist, a file's own bytes) to standard
    /// output as they are.
    static func writeData(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { writeData($0) }
    }

    private static func writeData(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        FileDescriptor.writeAll(STDOUT_FILENO, UnsafeRawPointer(base), count: bytes.count)
    }

    /// Writes a line of text to standard output, cleaned of control characters.
    static func print(_ line: String) {
        write(Array((line + "\n").utf8))
    }

    /// Writes a line of text to standard error, cleaned of control characters.
    static func error(_ line: String) {
        errorRaw(line + "\n")
    }

    /// Writes text to standard error, cleaned of control characters, with no line end added
    /// (a question waiting for its answer).
    static func errorRaw(_ text: String) {
        FileHandle.standardError.write(Data(TerminalText.cleaned(text).utf8))
    }

    /// Draws a progress line on standard error (a terminal): the line is cleared and `text`,
    /// cleaned to one line, written in its place.
    static func progressLine(_ text: String) {
        FileHandle.standardError.write(Data((clearLineSequence + TerminalText.cleanedLine(text)).utf8))
    }

    /// Clears the progress line.
    static func clearProgressLine() {
        FileHandle.standardError.write(Data(clearLineSequence.utf8))
    }

    /// Carriage return, then erase to the end of the line (CSI K).
    private static let clearLineSequence = "\r\u{1B}[K"

    /// Standard error's width when it is a terminal, else 80.
    static var errorWidth: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
