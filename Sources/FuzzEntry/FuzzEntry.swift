import FuzzTargets
#if canImport(Glibc)
import Glibc
#endif

// libFuzzer's entry points. `make fuzz` compiles this module and its dependencies with
// -sanitize=fuzzer,address and links the library into one fuzzer binary; the target to fuzz is
// chosen with the BIBREAD_FUZZ_TARGET environment variable (see scripts/fuzz.sh).

/// The target chosen at start-up.
nonisolated(unsafe) private var selectedTarget: FuzzTarget?

/// Reads BIBREAD_FUZZ_TARGET once, before the first input; exits with usage when it is unknown.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(_ argc: UnsafeMutablePointer<CInt>?,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    let name = getenv("BIBREAD_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        let message = Array("bibread-fuzz: set BIBREAD_FUZZ_TARGET to one of: \(names)\n".utf8)
        _ = write(2, message, message.count)
        exit(2)
    }
    selectedTarget = target
    return 0
}

/// Runs the chosen target on one input; an invariant that fails is a crash, like any other.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let target = selectedTarget else { return 0 }
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try target.run(bytes)
    } catch {
        fatalError("\(target.rawValue): invariant failed: \(error)")
    }
    return 0
}
