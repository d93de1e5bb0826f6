/// One `import` declaration of a Swift source file: the module it names and the line it is on.
///
/// The scanner reads declarations the way the compiler does at the start of a line, after
/// blanking comments and string literals (so the Python a test keeps in a `"""` string, or an
/// `import` in a comment, is not taken for one). It understands attributes (`@testable`,
/// `@_implementationOnly`, `@preconcurrency`, `@_spi(Name)`), access levels (`public import`),
/// kinds (`import struct Glibc.stat`) and submodules (`import Foundation.NSData`: the module is
/// `Foundation`). Imports inside `#if` branches all count, whichever branch is compiled here.
struct SwiftImport: Equatable {
    /// The module imported: the first component of the import path.
    let module: String
    /// The line of the declaration, from 1.
    let line: Int

    /// Every import declaration in `source`, in order.
    static func all(in source: String) -> [SwiftImport] {
        let code = blankingCommentsAndStrings(Array(source.utf8))
        var imports: [SwiftImport] = []
        for (index, line) in code.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let text = String(decoding: line, as: UTF8.self)
            for module in importedModules(inLine: text) {
                imports.append(SwiftImport(module: module, line: index + 1))
            }
        }
        return imports
    }

    private static let accessLevels: Set<String> = ["public", "package", "internal", "fileprivate", "private", "open"]
    private static let importKinds: Set<String> = ["typealias", "struct", "class", "enum", "protocol", "let", "var", "func"]

    /// The modules imported by the declarations of one line of code (several when `;` separates them).
    private static func importedModules(inLine line: String) -> [String] {
        line.split(separator: ";").compactMap { importedModule(inStatement: Substring($0)) }
    }

    private static func importedModule(inStatement statement: Substring) -> String? {
        var rest = statement.drop { $0 == " " || $0 == "\t" }
        // Attributes and access levels, in any order, before the keyword.
        while true {
            if rest.hasPrefix("@") {
                rest = rest.dropFirst().drop { $0.isLetter || $0.isNumber || $0 == "_" }
                if rest.hasPrefix("(") {
                    guard let close = rest.firstIndex(of: ")") else { return nil }
                    rest = rest[rest.index(after: close)...]
                }
            } else if let word = rest.split(whereSeparator: \.isWhitespace).first, accessLevels.contains(String(word)) {
                rest = rest.dropFirst(word.count)
            } else {
                break
            }
            rest = rest.drop { $0 == " " || $0 == "\t" }
        }
        var words = rest.split(whereSeparator: \.isWhitespace).map(String.init)
        guard words.first == "import", words.count >= 2 else { return nil }
        words.removeFirst()
        if importKinds.contains(words[0]), words.count >= 2 { words.removeFirst() }
        let module = words[0].split(separator: ".").first.map { $0.filter { $0 != "`" } } ?? ""
        guard let first = module.first, first.isLetter || first == "_",
              module.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return module
    }

    /// Where the lexer is: in code (at some depth of parentheses within a string's interpolation),
    /// in a string literal, or in a block comment (Swift's nest).
    private enum Context {
        case code(interpolationParens: Int?)
        case string(hashes: Int, multiline: Bool)
        case blockComment(depth: Int)
    }

    private static func isMultilineString(_ context: Context) -> Bool {
        if case .string(_, true) = context { return true }
        return false
    }

    /// `source` with every comment and string literal replaced by spaces, newlines kept, so that
    /// line numbers still hold and what is left at the start of a line is code.
    static func blankingCommentsAndStrings(_ source: [UInt8]) -> [UInt8] {
        let quote = UInt8(ascii: "\""), hash = UInt8(ascii: "#"), slash = UInt8(ascii: "/"),
            star = UInt8(ascii: "*"), backslash = UInt8(ascii: "\\"), newline = UInt8(ascii: "\n"),
            open = UInt8(ascii: "("), close = UInt8(ascii: ")"), space = UInt8(ascii: " ")
        var out = source
        var stack: [Context] = [.code(interpolationParens: nil)]
        var index = 0
        func at(_ offset: Int) -> UInt8? { index + offset < source.count ? source[index + offset] : nil }
        func blank(_ count: Int) {
            for position in index..<min(index + count, source.count) where source[position] != newline {
                out[position] = space
            }
            index += count
        }
        func hashes(from offset: Int) -> Int {
            var count = 0
            while at(offset + count) == hash { count += 1 }
            return count
        }
        func isTripleQuote(at offset: Int) -> Bool { at(offset) == quote && at(offset + 1) == quote && at(offset + 2) == quote }

        while index < source.count {
            guard let context = stack.last else { break }
            let byte = source[index]
            switch context {
            case .code(let parens):
                if byte == slash, at(1) == slash {
                    var length = 0
                    while let next = at(length), next != newline { length += 1 }
                    blank(length)
                } else if byte == slash, at(1) == star {
                    stack.append(.blockComment(depth: 1))
                    blank(2)
                } else if byte == quote || (byte == hash && at(hashes(from: 0)) == quote) {
                    let count = hashes(from: 0)
                    let multiline = isTripleQuote(at: count)
                    stack.append(.string(hashes: count, multiline: multiline))
                    blank(count + (multiline ? 3 : 1))
                } else if let depth = parens, byte == open {
                    stack[stack.count - 1] = .code(interpolationParens: depth + 1)
                    index += 1
                } else if let depth = parens, byte == close {
                    if depth == 0 {
                        stack.removeLast()
                        blank(1)
                    } else {
                        stack[stack.count - 1] = .code(interpolationParens: depth - 1)
                        index += 1
                    }
                } else {
                    index += 1
                }
            case .string(let count, let multiline):
                if byte == backslash, hashes(from: 1) == count {
                    if at(1 + count) == open {
                        blank(2 + count)
                        stack.append(.code(interpolationParens: 0))
                    } else {
                        blank(2 + count)
                    }
                } else if multiline, isTripleQuote(at: 0), hashes(from: 3) >= count {
                    stack.removeLast()
                    blank(3 + count)
                } else if !multiline, byte == quote, hashes(from: 1) >= count {
                    stack.removeLast()
                    blank(1 + count)
                } else if !multiline, byte == newline {
                    // A one-line string never crosses a line: recover at the line's end.
                    while stack.count > 1, !isMultilineString(stack[stack.count - 1]) { stack.removeLast() }
                    index += 1
                } else {
                    blank(1)
                }
            case .blockComment(let depth):
                if byte == slash, at(1) == star {
                    stack[stack.count - 1] = .blockComment(depth: depth + 1)
                    blank(2)
                } else if byte == star, at(1) == slash {
                    if depth == 1 { stack.removeLast() } else { stack[stack.count - 1] = .blockComment(depth: depth - 1) }
                    blank(2)
                } else {
                    blank(1)
                }
            }
        }
        return out
    }
}
