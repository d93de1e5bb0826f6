import BibreadTestSupport
import Foundation

/// Python's plistlib, an independent implementation of both formats, run as `/usr/bin/python3`.
///
/// A script sees the input bytes as `data` and answers with `emit(bytes)` (base64 on standard
/// output) or by printing text; `bplist(objects, top, offsets)` builds a binary plist from raw
/// objects (4-byte references and offsets), for inputs no writer would produce.
enum Plistlib {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private static let prelude = """
        import base64, datetime, os, plistlib, struct, sys
        from plistlib import UID
        data = base64.b64decode(os.environ['PLIST_INPUT'])
        def emit(raw):
            print(base64.b64encode(raw).decode('ascii'))
        def ref(number):
            return struct.pack('>I', number)
        def marker(kind, count):
            return bytes([kind << 4 | count]) if count < 15 else bytes([kind << 4 | 0xF, 0x12]) + ref(count)
        def array(children):
            return marker(0xA, len(children)) + b''.join(ref(child) for child in children)
        def bplist(objects, top=0, offsets=None):
            out = bytearray(b'bplist00')
            places = []
            for item in objects:
                places.append(len(out))
                out += item
            table = len(out)
            for index, place in enumerate(places):
                out += ref((offsets or {}).get(index, place))
            out += bytes([0, 0, 0, 0, 0, 0, 4, 4]) + struct.pack('>QQQ', len(objects), top, table)
            return bytes(out)

        """

    /// What `script` printed, with `input` as `data`.
    static func output(_ script: String, input: [UInt8] = []) throws -> String {
        let result = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", prelude + script],
                                           environment: ["PLIST_INPUT": Data(input).base64EncodedString(),
                                                         "PYTHONIOENCODING": "utf-8"])
        guard result.status == 0 else { throw Failure(description: "python3 failed (\(result.status)): \(result.standardError)") }
        return result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The bytes `script` gave to `emit`.
    static func bytes(_ script: String, input: [UInt8] = []) throws -> [UInt8] {
        let text = try output(script, input: input)
        guard let data = Data(base64Encoded: text) else { throw Failure(description: "not base64: \(text.prefix(200))") }
        return [UInt8](data)
    }
}
