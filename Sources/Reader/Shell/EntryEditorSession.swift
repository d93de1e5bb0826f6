import BibModel
import Foundation
import OpenWith
import ReaderCore

/// One run of `$EDITOR` on a reference's text: the text goes to a file of its own (mode 0600,
/// in a folder only the user can read), the editor runs in the terminal, and what the user
/// saved is read back. A refused try is shown again with why at its top, as `% bibread:` lines
/// (BibTeX ignores text outside entries; the reader drops these lines before reading it).
///
/// The editor is `$VISUAL`, else `$EDITOR`, else `vi`; its value is split at spaces (`code -w`)
/// and run as an argv, never through a shell.
enum EntryEditorSession {
    /// Runs the editor on `text`; the text saved, or nil and why not.
    static func run(_ text: EntryText, environment: [String: String]) -> (edited: String?, problem: String?) {
        let setting = [environment["VISUAL"], environment["EDITOR"]].compactMap { $0 }
            .first { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? "vi"
        let words = setting.split(separator: " ").map(String.init)
        guard let name = words.first,
              let program = Launcher.findExecutable(name, path: environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin") else {
            return (nil, "The editor '\(TerminalText.cleanedLine(setting))' was not found; set $VISUAL or $EDITOR")
        }
        var template = Array((NSTemporaryDirectory() + "/bibread-entry-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.flatMap { mkdtemp($0) } != nil }
        guard made else {
            return (nil, "Cannot make a folder for the editor's file: \(String(cString: strerror(errno)))")
        }
        let folder = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + text.fileName
        var contents = ""
        if let problem = text.problem {
            contents = AppState.editorNotePrefix + problem + "\n"
                + AppState.editorNotePrefix + "fix the entry and save, or empty the file to leave the entry as it is\n"
        }
        contents += text.text.hasSuffix("\n") ? text.text : text.text + "\n"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return (nil, "Cannot write \(path): \(String(cString: strerror(errno)))") }
        let bytes = Array(contents.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count else { return (nil, "Cannot write \(path)") }
        do {
            let end = try Launcher.spawn(PreparedCommand(executable: program, arguments: Array(words.dropFirst()) + [path]),
                                         style: .terminal).waitUntilExit()
            guard end.succeeded else {
                return (nil, TerminalText.cleanedLine("The editor \(name) ended: \(end); \(text.address) was left as it was"))
            }
        } catch {
            return (nil, TerminalText.cleanedLine("Cannot run the editor \(name): \(error)"))
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return (nil, "The editor's file is gone; \(text.address) was left as it was")
        }
        return (String(decoding: data, as: UTF8.self), nil)
    }
}
