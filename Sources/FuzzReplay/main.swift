import Foundation
import FuzzTargets

// bibread-fuzz-replay TARGET PATH…: runs a fuzz target over inputs (files, or every file in a
// folder) without the fuzzer, and reports how many ran, how long they took and the slowest one.
// `make fuzz` uses it on each target's corpus to report the slowest input in a release build.

let usage = """
    usage: bibread-fuzz-replay TARGET PATH…

    Runs TARGET over each input file (folders are read one level deep) and prints the number of
    inputs, the total time and the slowest input. Exits 1 if an invariant fails.
    Targets: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))

    """

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "--help" || arguments.first == "-h" {
    print(usage, terminator: "")
    exit(0)
}
guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[0]) else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(2)
}

var files: [String] = []
for path in arguments.dropFirst() {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        FileHandle.standardError.write(Data("bibread-fuzz-replay: \(path): no such file or folder\n".utf8))
        exit(2)
    }
    if isDirectory.boolValue {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        files += names.sorted().map { (path as NSString).appendingPathComponent($0) }
    } else {
        files.append(path)
    }
}

let clock = ContinuousClock()
var total = Duration.zero
var slowest: (path: String, time: Duration, size: Int)?
var failures = 0
for file in files {
    guard let data = FileManager.default.contents(atPath: file) else { continue }
    let bytes = [UInt8](data)
    // The better of two runs, so that one-time set-up (tables built on first use) and a busy
    // machine do not make an input look slow.
    var failure: Error?
    var time = Duration.seconds(Int64.max)
    for _ in 0..<2 {
        time = min(time, clock.measure {
            do { try target.run(bytes) } catch { failure = error }
        })
    }
    if let failure {
        failures += 1
        print("\(file): invariant failed: \(failure)")
    }
    total += time
    if time > (slowest?.time ?? .zero) { slowest = (file, time, bytes.count) }
}

func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    return String(format: "%.2f ms", Double(seconds) * 1000 + Double(attoseconds) / 1e15)
}

var report = "\(target.rawValue): \(files.count) inputs in \(milliseconds(total))"
if let slowest {
    report += "; slowest \(milliseconds(slowest.time)) (\(slowest.size) bytes: \(slowest.path))"
}
print(report)
exit(failures == 0 ? 0 : 1)
