import BibreadServices
import BibreadTestSupport
import Dispatch
import Foundation
import Synchronization
import ReadingStateSync
import Testing

/// This machine's identity for the shared reading state: an id made once (mode 0600, the same
/// on every later call, one id when many processes or threads make it at once), a damaged id
/// file refused with its path, and the device name from config.toml or the host name.
@Suite("machine identity")
struct MachineIdentityTests {
    @Test func theIdIsMadeOnceOnlyReadableByTheUserAndKept() throws {
        let state = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let first = try MachineIdentity.load(state: state)
        let again = try MachineIdentity.load(state: state)
        #expect(first.id == again.id)
        #expect(first.id.rawValue.count == 32)
        let file = state.appendingPathComponent("machine-id")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o777 == 0o600)
        #expect(try String(contentsOf: file, encoding: .utf8) == first.id.rawValue + "\n")
        // No temporary file is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path) == ["machine-id"])
    }

    @Test func manyMakingItAtOnceGetOneId() throws {
        for _ in 0..<20 {
            let state = try Fixtures.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: state) }
            let ids = Mutex<[MachineID]>([])
            let failures = Mutex<[String]>([])
            DispatchQueue.concurrentPerform(iterations: 8) { _ in
                do {
                    let id = try MachineIdentity.load(state: state).id
                    ids.withLock { $0.append(id) }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
            let made = ids.withLock { $0 }
            #expect(made.count == 8, "\(failures.withLock { $0 })")
            #expect(Set(made).count == 1, "\(Set(made))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: state.path) == ["machine-id"])
        }
    }

    @Test func aDamagedIdFileIsRefusedWithItsPathAndLeftAlone() throws {
        let state = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let file = state.appendingPathComponent("machine-id")
        try Data("not an id!\u{1B}[2J\n".utf8).write(to: file)
        let error = #expect(throws: MachineIdentityError.self) { try MachineIdentity.load(state: state) }
        #expect(error?.description.hasPrefix(file.path + ": does not hold a machine id") == true, "\(String(describing: error))")
        #expect(error?.description.contains("\u{1B}") == false)
        #expect(try Data(contentsOf: file) == Data("not an id!\u{1B}[2J\n".utf8))
    }

    @Test func theNameIsTheConfigsDeviceNameElseTheHostName() throws {
        let state = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        let config = Config.parse("device_name = \"laptop\"\n", path: "/c/config.toml", home: nil)
        #expect(config.problems.isEmpty)
        #expect(try MachineIdentity.load(state: state, name: config.deviceName).name == "laptop")
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? ""
        let named = try MachineIdentity.load(state: state).name
        #expect(!named.isEmpty && (host.isEmpty || named.hasPrefix(host)), "\(named) vs \(host)")
        for bad in ["\"\"", "\"a\\u001Bb\"", "\"\(String(repeating: "x", count: 65))\"", "3"] {
            let refused = Config.parse("device_name = \(bad)\n", path: "/c/config.toml", home: nil)
            #expect(refused.deviceName == nil, "\(bad)")
            #expect(refused.problems.first?.hasPrefix("/c/config.toml: device_name ") == true, "\(bad): \(refused.problems)")
        }
    }
}
