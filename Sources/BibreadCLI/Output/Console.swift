import Foundation
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

    /// Writes all of `bytes` to standard output, retrying short writes and EINTR.
    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    /// Writes bytes to standard output as they are.
    static func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        FileDescriptor.writeAll(STDOUT_FILENO, UnsafeRawPointer(base), count: bytes.count)
    }

    static func print(_ line: String) {
        write(Array((line + "\n").utf8))
    }

    /// Writes a line to standard error.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Writes text to standard error as it is (progress bars redraw their line with `\r`).
    static func errorRaw(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Standard error's width when it is a terminal, else 80.
    static var errorWidth: Int {
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        return 80
    }
}
