import BibModel
import BibreadValues

extension HandlerEntry {
    /// Why the entry cannot be used, one sentence each; empty when it is valid.
    public var validationProblems: [String] { issues().map(\.message) }

    /// The checks the registry makes when it loads an entry.
    func issues() -> [EntryIssue] {
        var issues: [EntryIssue] = []
        if !HandlerEntry.isValidIdentifier(id) {
            issues.append(EntryIssue(key: "id", message: "the id must be 1 to 64 letters, digits, '.', '_' or '-'"))
        }
        if name.isEmpty { issues.append(EntryIssue(key: "name", message: "the name is empty")) }
        if intentions.isEmpty {
            issues.append(EntryIssue(key: "intentions", message: "it serves no intention (list some of: \(Intention.allCases.map(\.rawValue).joined(separator: ", ")))"))
        }
        if style == .osc52 {
            if !argv.isEmpty {
                issues.append(EntryIssue(key: "argv", message: "an osc52 handler runs no program: leave argv out"))
            }
            if standardInput == nil {
                issues.append(EntryIssue(key: "stdin", message: "an osc52 handler needs stdin, the text it copies (such as \"{key}\")"))
            }
            if programVariable != nil {
                issues.append(EntryIssue(key: "program_env", message: "an osc52 handler runs no program: leave program_env out"))
            }
        } else if let program = argv.first {
            if program.isEmpty {
                issues.append(EntryIssue(key: "argv", message: "the program (argv's first element) is empty"))
            } else if program.contains("{") || program.contains("}") || program.utf8.contains(0) {
                issues.append(EntryIssue(key: "argv", message: "the program (argv's first element) may not contain placeholders or braces"))
            }
            for argument in argv.dropFirst() {
                do {
                    _ = try Template(parsing: argument)
                } catch {
                    issues.append(EntryIssue(key: "argv", message: "argument '\(argument)': \(error)"))
                }
            }
        } else {
            issues.append(EntryIssue(key: "argv", message: "argv is empty: it needs at least the program"))
        }
        if let standardInput {
            do {
                _ = try Template(parsing: standardInput)
            } catch {
                issues.append(EntryIssue(key: "stdin", message: "stdin: \(error)"))
            }
            if style == .detached {
                issues.append(EntryIssue(key: "stdin", message: "a detached handler gets no standard input: use style \"quick\", \"background\" or \"terminal\""))
            }
        }
        if let package, !HandlerEntry.isValidPackageName(package) {
            issues.append(EntryIssue(key: "package", message: "'\(package)' is not a Debian package name (lower-case letters, digits, '+', '-', '.')"))
        }
        if let programVariable, !HandlerEntry.isValidVariableName(programVariable) {
            issues.append(EntryIssue(key: "program_env", message: "'\(programVariable)' is not an environment variable name"))
        }
        return issues
    }

    static func isValidIdentifier(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "._-".unicodeScalars.contains(scalar))
        }
    }

    /// Debian policy 5.6.1: at least two characters, lower-case letters, digits, `+`, `-`, `.`,
    /// starting with a letter or digit.
    static func isValidPackageName(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard scalars.count >= 2, scalars.count <= 100 else { return false }
        func isLowerOrDigit(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) }
        return isLowerOrDigit(scalars[0]) && scalars.allSatisfy { isLowerOrDigit($0) || "+-.".unicodeScalars.contains($0) }
    }

    static func isValidVariableName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, text.utf8.count <= 64 else { return false }
        func isLetter(_ scalar: Unicode.Scalar) -> Bool { ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" }
        return isLetter(first) && text.unicodeScalars.allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
    }
}
