import Foundation

/// The `keys` strings of BibDesk's `@comment{BibDesk Static Groups{<plist>}}`, found as byte
/// ranges so that a change of members rewrites one string and nothing else of the comment.
///
/// The scan reads `<dict>`s in order, each with `<key>group name</key><string>…</string>` and
/// `<key>keys</key><string>…</string>` (or `<string/>`); the names it finds must be those the
/// property-list reader finds (`BibDeskGroups.parse`), else the comment is not edited.
struct StaticGroupComment {
    struct Group {
        let name: String
        /// The member keys as written (comma-separated).
        let keys: String
        /// The bytes of the keys string's content (empty for `<string/>`: then the whole tag).
        let keysRange: Range<Int>
        /// True when the keys are written `<string/>` (or missing), so a new string is needed.
        let isEmptyTag: Bool
        /// Where a `<key>keys</key>` pair would go when the dict has none.
        let dictEnd: Int
        let hasKeys: Bool
    }

    let groups: [Group]

    /// Reads the static groups comment whose `@` is at `offset` in `text`.
    static func read(_ text: [UInt8], commentAt offset: Int, plist: String) -> StaticGroupComment? {
        guard case .success(let parsed) = BibDeskGroups.parse(plist, kind: .static) else { return nil }
        guard let end = find("</plist>", in: text, from: offset, to: text.count) else { return nil }
        var groups: [Group] = []
        var cursor = offset
        while let open = find("<dict>", in: text, from: cursor, to: end) {
            guard let close = find("</dict>", in: text, from: open, to: end) else { return nil }
            cursor = close + 7
            guard let nameTag = find("<key>group name</key>", in: text, from: open, to: close),
                  let name = string(in: text, after: nameTag + 21, before: close) else { continue }
            var keys = ("", (close..<close), true, false)
            if let keysTag = find("<key>keys</key>", in: text, from: open, to: close),
               let found = string(in: text, after: keysTag + 15, before: close) {
                keys = (found.text, found.range, found.isEmptyTag, true)
            }
            groups.append(Group(name: BibDeskGroups.unescape(name.text), keys: keys.0, keysRange: keys.1,
                                isEmptyTag: keys.2, dictEnd: close, hasKeys: keys.3))
        }
        guard groups.map(\.name) == parsed.map(\.name) else { return nil }
        return StaticGroupComment(groups: groups)
    }

    /// The next `<string>…</string>` (or `<string/>`) after `start`, blanks only before it.
    private static func string(in text: [UInt8], after start: Int, before limit: Int)
        -> (text: String, range: Range<Int>, isEmptyTag: Bool)? {
        var index = start
        while index < limit, isWhitespace(text[index]) { index += 1 }
        if let empty = find("<string/>", in: text, from: index, to: min(limit, index + 9)), empty == index {
            return ("", index..<(index + 9), true)
        }
        guard let open = find("<string>", in: text, from: index, to: min(limit, index + 8)), open == index,
              let close = find("</string>", in: text, from: open + 8, to: limit) else { return nil }
        let content = String(decoding: text[(open + 8)..<close], as: UTF8.self)
        return (XMLText.unescape(content), (open + 8)..<close, false)
    }

    /// The offset of `needle` in `text[from..<to]`.
    static func find(_ needle: StaticString, in text: [UInt8], from: Int, to: Int) -> Int? {
        needle.withUTF8Buffer { pattern -> Int? in
            guard let first = pattern.first, to - from >= pattern.count else { return nil }
            var index = from
            while index + pattern.count <= to {
                if text[index] == first, (1..<pattern.count).allSatisfy({ text[index + $0] == pattern[$0] }) { return index }
                index += 1
            }
            return nil
        }
    }
}

/// The five XML entities and numeric references, as plists write text.
enum XMLText {
    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func unescape(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            guard let semi = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semi) <= 10 else {
                result += rest[amp...]
                return result
            }
            let name = rest[rest.index(after: amp)..<semi]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"][String(name)]
            var numeric: String?
            if name.hasPrefix("#x"), let value = UInt32(name.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(value) {
                numeric = String(Character(scalar))
            } else if name.hasPrefix("#"), let value = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(value) {
                numeric = String(Character(scalar))
            }
            result += named ?? numeric ?? String(rest[amp...semi])
            rest = rest[rest.index(after: semi)...]
        }
        return result + rest
    }
}
