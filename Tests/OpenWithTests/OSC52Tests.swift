import Foundation
import Glibc
import OpenWith
import Testing

@Suite("OSC 52")
struct OSC52Tests {
    private let base64 = Array("a251dGg4NA==".utf8) // "knuth84"

    @Test("plain: ESC ] 52 ; c ; base64 BEL")
    func plain() throws {
        let bytes = try OSC52.sequence(copying: "knuth84", terminal: .plain)
        #expect(bytes == [0x1B, 0x5D, 0x35, 0x32, 0x3B, 0x63, 0x3B] + base64 + [0x07])
    }

    @Test("tmux: the plain sequence for tmux itself, then DCS passthrough with the ESC doubled")
    func tmux() throws {
        let bytes = try OSC52.sequence(copying: "knuth84", terminal: .tmux)
        let plain: [UInt8] = [0x1B, 0x5D] + Array("52;c;".utf8) + base64 + [0x07]
        let expected: [UInt8] = plain + [0x1B, 0x50] + Array("tmux;".utf8) + [0x1B, 0x1B, 0x5D] + Array("52;c;".utf8) + base64 + [0x07, 0x1B, 0x5C]
        #expect(bytes == expected)
    }

    @Test("screen: in a DCS string")
    func screen() throws {
        let bytes = try OSC52.sequence(copying: "knuth84", terminal: .screen)
        #expect(bytes == [0x1B, 0x50, 0x1B, 0x5D] + Array("52;c;".utf8) + base64 + [0x07, 0x1B, 0x5C])
    }

    @Test("the text is sent as UTF-8")
    func utf8() throws {
        let bytes = try OSC52.sequence(copying: "Gödel, K.", terminal: .plain)
        let encoded = Data("Gödel, K.".utf8).base64EncodedString()
        #expect(bytes == [0x1B] + Array("]52;c;\(encoded)".utf8) + [0x07])
    }

    @Test("more than 100 000 bytes of base64 is refused")
    func tooLong() throws {
        #expect(try OSC52.sequence(copying: String(repeating: "a", count: 75_000), terminal: .plain).count == 7 + 100_000 + 1)
        #expect(throws: OSC52Error.tooLong(encodedLength: 100_004, limit: 100_000)) {
            try OSC52.sequence(copying: String(repeating: "a", count: 75_001), terminal: .plain)
        }
    }

    @Test("the terminal kind comes from TMUX and TERM")
    func detection() {
        #expect(TerminalKind.detect(environment: ["TERM": "xterm-256color"]) == .plain)
        #expect(TerminalKind.detect(environment: [:]) == .plain)
        #expect(TerminalKind.detect(environment: ["TERM": "screen-256color", "TMUX": "/tmp/tmux-1000/default,1,0"]) == .tmux)
        #expect(TerminalKind.detect(environment: ["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"]) == .tmux)
        #expect(TerminalKind.detect(environment: ["TERM": "screen.xterm-256color"]) == .screen)
        #expect(TerminalKind.detect(environment: ["TERM": "xterm", "TMUX": ""]) == .plain)
    }

    @Test("copy writes the whole sequence to the descriptor")
    func copyWrites() throws {
        var descriptors: [Int32] = [-1, -1]
        #expect(pipe(&descriptors) == 0)
        defer { close(descriptors[0]) }
        try OSC52.copy("knuth84", terminal: .plain, to: descriptors[1])
        close(descriptors[1])
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = read(descriptors[0], &buffer, buffer.count)
        #expect(Array(buffer.prefix(max(count, 0))) == (try OSC52.sequence(copying: "knuth84", terminal: .plain)))
    }
}
