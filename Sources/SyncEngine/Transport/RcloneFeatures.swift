import Foundation

/// What a backend says of itself (`rclone backend features`), asked once per transport: whether
/// it lists a hash without reading the file, and whether a modification time costs a request
/// of its own (S3 keeps it in metadata).
final class RcloneFeatures: @unchecked Sendable {
    private let lock = NSLock()
    private var options: [String]?

    private struct Answer: Decodable {
        var hashes: [String]?
        var features: [String: Bool]?
        enum CodingKeys: String, CodingKey { case hashes = "Hashes", features = "Features" }
    }

    /// The options of `rclone lsjson` for this backend: no MIME types (a lookup per file), its
    /// hash where listing gives it (and then no separate modification time where that is slow).
    func listingOptions(of root: String, _ program: RcloneProgram) throws -> [String] {
        lock.lock()
        defer { lock.unlock() }
        if let options { return options }
        var found = ["--no-mimetype"]
        let outcome = try program.run(["backend", "features", root])
        // Not kept when it fails: a listing with other options would give every file another version.
        guard outcome.status == 0 else { throw outcome.failure }
        if let answer = try? JSONDecoder().decode(Answer.self, from: Data(outcome.output)),
           answer.features?["SlowHash"] != true, let hashes = answer.hashes, !hashes.isEmpty {
            let preferred = ["md5", "sha1", "sha256"].first(where: hashes.contains) ?? hashes[0]
            found += ["--hash", "--hash-type", preferred]
            if answer.features?["SlowModTime"] == true { found.append("--no-modtime") }
        }
        options = found
        return found
    }
}
