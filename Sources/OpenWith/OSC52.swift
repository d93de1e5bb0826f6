import DiskIO
import Foundation

/// The OSC 52 escape sequence, which sets the clipboard of the terminal emulator itself (so it
/// works over SSH): `ESC ] 52 ; c ; <base64 of the UTF-8 text> BEL`.
public enum OSC52 {
    /// The most base64 sent (100 000 bytes; xterm and several others stop near there).
    public static let encodedLimit = 100_000

    /// The bytes that copy `text`, wrapped for `terminal`:
    /// - plain: `ESC ] 52 ; c ; <base64> BEL`;
    /// - tmux: the plain sequence, which tmux takes itself with `set -g set-clipboard on` (its
    ///   buffer, and the outer terminal's clipboard), then `ESC P tmux ; <the plain sequence with
    ///   each ESC doubled> ESC \`, which reaches the outer terminal with `allow-passthrough on`
    ///   (off by default since tmux 3.3): either setting is enough, and both do no harm;
    /// - screen: `ESC P <the plain sequence> ESC \`.
    public static func sequence(copying text: String, terminal: TerminalKind) throws(OSC52Error) -> [UInt8] {
        let utf8 = Array(text.utf8)
        let encodedLength = (utf8.count + 2) / 3 * 4
        guard encodedLength <= encodedLimit else { throw .tooLong(encodedLength: encodedLength, limit: encodedLimit) }
        let plain: [UInt8] = [0x1B] + Array("]52;c;".utf8) + Array(Data(utf8).base64EncodedString().utf8) + [0x07]
        switch terminal {
        case .plain:
            return plain
        case .tmux:
            let doubled = plain.flatMap { $0 == 0x1B ? [0x1B, 0x1B] : [$0] }
            return plain + [0x1B] + Array("Ptmux;".utf8) + doubled + [0x1B, 0x5C]
        case .screen:
            return [0x1B, 0x50] + plain + [0x1B, 0x5C]
        }
    }

    /// Writes the sequence that copies `text` to `descriptor` (the terminal), all of it.
    public static func copy(_ text: String, terminal: TerminalKind, to descriptor: Int32) throws -> Void {
        let bytes = try sequence(copying: text, terminal: terminal)
        try FileDescriptor.writeAll(bytes, to: descriptor)
    }
}
