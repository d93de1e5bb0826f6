import BibreadTestSupport
import Foundation
import FuzzTargets
import Testing

/// Every input the fuzzers ever crashed on (Fuzz/regressions/TARGET/) and every hand-written
/// seed (Fuzz/seeds/TARGET/) runs through its target: no crash, and every invariant holds.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let fuzzFolder = Fixtures.repositoryRoot.appendingPathComponent("Fuzz")

    /// The files of Fuzz/KIND/TARGET/, sorted (none when the folder does not exist).
    static func inputs(_ kind: String, _ target: FuzzTarget) -> [URL] {
        let folder = fuzzFolder.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test("Fuzz/ holds only folders named after targets, with a dictionary and seeds for each")
    func layout() throws {
        let targets = Set(FuzzTarget.allCases.map(\.rawValue))
        for kind in ["seeds", "regressions"] {
            let folder = Self.fuzzFolder.appendingPathComponent(kind)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            for name in names where !name.hasPrefix(".") && name != "README.md" {
                #expect(targets.contains(name), "Fuzz/\(kind)/\(name) is not a fuzz target (targets: \(targets.sorted()))")
            }
        }
        for target in FuzzTarget.allCases {
            #expect(!Self.inputs("seeds", target).isEmpty, "no hand-written seeds in Fuzz/seeds/\(target.rawValue)")
            let dictionary = Self.fuzzFolder.appendingPathComponent("dictionaries/\(target.rawValue).dict")
            #expect(FileManager.default.fileExists(atPath: dictionary.path), "no \(dictionary.path)")
        }
    }

    @Test("Seeds and past crashes run clean", arguments: FuzzTarget.allCases)
    func regressions(_ target: FuzzTarget) throws {
        let files = Self.inputs("seeds", target) + Self.inputs("regressions", target)
        for file in files {
            let bytes = try [UInt8](Data(contentsOf: file))
            #expect(throws: Never.self, "\(file.lastPathComponent)") { try target.run(bytes) }
        }
    }
}
