import BibModel
import DiskIO
import Foundation

/// Standard output and error of the development commands. Text is cleaned of control
/// characters (`TerminalText`) as everything `bibread` prints is; `writeData` writes a format's
/// bytes as they are.
enum DevConsole {
    /// Writes a line of text to standard output, cleaned of control characters.
    static func print(_ line: String) {
        writeData(Array(TerminalText.cleaned(line + "\n").utf8))
    }

    /// Writes bytes to standard output as they are (retrying short writes and EINTR).
    static func writeData(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            FileDescriptor.writeAll(STDOUT_FILENO, base, count: buffer.count)
        }
    }

    /// Writes a line of text to standard error, cleaned of control characters.
    static func error(_ line: String) {
        FileHandle.standardError.write(Data(TerminalText.cleaned(line + "\n").utf8))
    }
}
