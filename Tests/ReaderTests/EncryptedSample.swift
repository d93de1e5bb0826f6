import BibreadTestSupport
import Foundation
import Testing

/// The sample's `tex-tour.pdf`, encrypted by qpdf with the user password `user` (owner: `owner`).
enum EncryptedSample {
    /// Writes it to `url`.
    static func write(to url: URL) throws {
        let qpdf = try ProcessRunner.run(URL(fileURLWithPath: "/usr/bin/qpdf"),
                                         ["--encrypt", "user", "owner", "256", "--", Fixtures.samples.appendingPathComponent("papers/tex-tour.pdf").path, url.path])
        #expect(qpdf.status == 0, "\(qpdf.standardError)")
    }
}
