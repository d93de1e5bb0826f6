import Checksums
import Foundation
@testable import PDFText
import Testing
import BibreadTestSupport

@Suite("SHA-256 and PDF fingerprints")
struct FingerprintTests {
    /// FIPS 180-4 examples, and a message longer than one block.
    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hex(of: Array("".utf8)) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: Array(("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
            + "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu").utf8))
            == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
        #expect(SHA256.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1000))
            == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
        // Fed in pieces, the same digest.
        var hash = SHA256()
        for piece in ["abcdbcdecdefdefgefghfghig", "hijhijkijkljklmklmnlmnomnopnopq"] { hash.update(Array(piece.utf8)) }
        #expect(SHA256.hexString(hash.finalize()) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    /// libcrypto's digest (large buffers) is the Swift code's, byte for byte, for buffers of
    /// every size around the threshold and for a million 'a's (FIPS 180-4's long example).
    @Test func libcryptoAndSwiftGiveTheSameDigest() throws {
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(SHA256.hex(of: million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        #expect(SHA256.hexString(SHA256.swiftDigest(of: million)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        var generator = SystemRandomNumberGenerator()
        for size in [0, 1, 63, 64, 65, 65_535, 65_536, 65_537, 1 << 20, 3_000_001] {
            let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let viaLibcrypto = try #require(bytes.withUnsafeBytes { SHA256.libcryptoDigest($0) }, "libcrypto could not be opened")
            #expect(viaLibcrypto == SHA256.swiftDigest(of: bytes), "size \(size)")
            #expect(SHA256.digest(of: bytes) == viaLibcrypto, "size \(size)")
        }
    }

    /// The format: SHA-256 of the size (8 bytes, little-endian), the first and the last 64 KiB
    /// (values computed with Python's hashlib).
    @Test func fingerprintHashesSizeHeadAndTail() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let small = folder.appendingPathComponent("hello.pdf")
        try Data("hello".utf8).write(to: small)
        #expect(try PDFFingerprint.of(path: small.path) == "01e55fa36f604ae55f01b24b0d4787a9124c764bb5f80cad1d00a6d324868499")
        let empty = folder.appendingPathComponent("empty.pdf")
        try Data().write(to: empty)
        #expect(try PDFFingerprint.of(path: empty.path) == "af5570f5a1810b7af78caf4bc70a660f0df51e42baf91d4de5b2328de0e83dfc")
        let big = folder.appendingPathComponent("big.pdf")
        try Data((0..<200_000).map { UInt8(($0 * 31 + 7) % 251) }).write(to: big)
        #expect(try PDFFingerprint.of(path: big.path) == "98f659e096a13685a9acfb1136d059bc716d30c474e8d2d028c6ccb68842de65")
    }

    @Test func aCopyElsewhereHasTheSameFingerprintAndAnotherFileAnother() throws {
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = corpusPDF("R-intro.pdf")
        let copy = folder.appendingPathComponent("renamed copy.pdf")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: original), to: copy)
        let fingerprint = try PDFFingerprint.of(path: original)
        #expect(fingerprint.count == 64 && fingerprint.allSatisfy(\.isHexDigit))
        #expect(try PDFFingerprint.of(path: copy.path) == fingerprint)
        #expect(try PDFFingerprint.of(path: corpusPDF("R-exts.pdf")) != fingerprint)
        #expect(try PDFFingerprint.of(path: samplePDF("tex-tour.pdf")) != PDFFingerprint.of(path: samplePDF("shortest-paths.pdf")))

        // A change in the last byte or in the length changes it.
        var bytes = try Data(contentsOf: copy)
        bytes[bytes.count - 1] ^= 0x01
        try bytes.write(to: copy)
        #expect(try PDFFingerprint.of(path: copy.path) != fingerprint)
        try bytes.dropLast().write(to: copy)
        #expect(try PDFFingerprint.of(path: copy.path) != fingerprint)
    }

    @Test func unreadableFilesAreErrors() throws {
        #expect { try PDFFingerprint.of(path: "/nonexistent/paper.pdf") } throws: { error in
            guard case PDFError.unreadable(let path, let reason) = error else { return false }
            return path == "/nonexistent/paper.pdf" && reason.contains("No such file")
        }
        let folder = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: PDFError.notRegularFile(path: folder.path, kind: "a directory")) {
            try PDFFingerprint.of(path: folder.path)
        }
    }
}
