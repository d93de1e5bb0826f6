import Foundation
import PropertyList

/// Turns a file's bytes into UTF-8: BOM, declared encodings, and the Windows-1252 fallback.
enum SourceDecoding {
    /// From this size on, a file's UTF-8 is checked in two halves at once.
    static let parallelValidationSize = 8 << 20

    /// The offset of the first byte of `bytes` that breaks UTF-8, or nil, as
    /// `UTF8Validation.firstInvalidOffset` gives it. A large file is first checked in two halves
    /// on two threads, split where a character starts (a byte that is not a continuation byte),
    /// so that no character straddles the halves of a valid file; only a file found invalid is
    /// read again in one pass, for the place of its first bad byte.
    static func firstInvalidUTF8Offset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        if bytes.count >= parallelValidationSize, ProcessInfo.processInfo.activeProcessorCount > 1,
           halvesAreValidUTF8(bytes) {
            return nil
        }
        return UTF8Validation.firstInvalidOffset(in: bytes)
    }

    /// True when both halves of `bytes` (split where a character starts) are valid UTF-8,
    /// checked at once on two threads.
    static func halvesAreValidUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var split = bytes.count / 2
        // A valid character has at most three continuation bytes.
        while split > bytes.count / 2 - 4, bytes[split] & 0xC0 == 0x80 { split -= 1 }
        guard bytes[split] & 0xC0 != 0x80 else { return false }
        guard let base = bytes.baseAddress else { return true }
        // The address as a number, as `LibraryLoader.read` passes it: the bytes outlive the threads.
        let start = UInt(bitPattern: base)
        let bounds = [0, split, bytes.count]
        let valid = LockedValue([Bool](repeating: false, count: 2))
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            guard let address = UnsafePointer<UInt8>(bitPattern: start + UInt(bounds[half])) else { return }
            let part = UnsafeBufferPointer(start: address, count: bounds[half + 1] - bounds[half])
            let isValid = UTF8Validation.firstInvalidOffset(in: part) == nil
            valid.withLock { $0[half] = isValid }
        }
        return valid.withLock { $0[0] && $0[1] }
    }

    struct Note {
        let location: SourceLocation
        let message: String
    }

    static func decode(_ bytes: [UInt8]) -> (utf8: [UInt8], encoding: TextEncoding, note: Note?) {
        bytes.withUnsafeBufferPointer { buffer in
            var body = buffer
            if buffer.count >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF {
                body = UnsafeBufferPointer(rebasing: buffer[3...])
            }
            let declared = TextEncoding.declared(in: body)
            if let declared, declared != .utf8 {
                return (declared.transcodeToUTF8(body), declared, nil)
            }
            guard let bad = firstInvalidUTF8Offset(in: body) else {
                return (body.count == buffer.count ? bytes : Array(body), .utf8, nil)
            }
            let original = [UInt8](body)
            let lines = LineIndex(bytes: original)
            let line = lines.line(of: bad)
            let location = SourceLocation(line: line, column: 1 + ScalarCounts.scalars(in: original, lines.start(ofLine: line), bad))
            let why = declared == .utf8 ? "declares UTF-8 but is not valid UTF-8" : "is not valid UTF-8"
            let chosen = EncodingGuess.bestFit(for: body)
            let names = EncodingGuess.candidates.map(\.rawValue)
            let note = Note(location: location,
                            message: "file \(why) (first bad byte 0x\(String(body[bad], radix: 16, uppercase: true)) here)"
                                + "\(declared == nil ? " and declares no encoding" : ""); read as \(chosen.rawValue), which its bytes fit best"
                                + " of \(names.dropLast().joined(separator: ", ")) and \(names.last ?? "")")
            return (chosen.transcodeToUTF8(body), chosen, note)
        }
    }
}
