/// What a later chunk of a file left open because it was read before the chunks ahead of it:
/// uses of `@string` macros it does not define itself, and `@string`s that may redefine one.
///
/// Each is noted with the number of problems reported before it, so that when the chunks are
/// joined its warning (if any) goes where one pass over the file would have put it.
struct DeferredMacros {
    /// A macro use, or a definition that is a redefinition if an earlier chunk defined the name.
    struct Check {
        let lower: String
        let spelled: String
        let offset: Int
        let problemIndex: Int
        let isRedefinition: Bool
    }

    /// A use's expansion goes at byte `at` of the placeholder text its value was given.
    struct Insertion {
        let check: Int
        let at: Int
    }

    /// A field value (`texts[text]` of entry number `entry` of the chunk) with expansions to insert.
    struct PendingText {
        let entry: Int
        let text: Int
        let insertions: [Insertion]
    }

    private(set) var checks: [Check] = []
    private(set) var texts: [PendingText] = []
    /// The insertions of the value being parsed.
    private var current: [Insertion] = []
    /// Where the value part being parsed starts in the value's text.
    private var partStart = 0
    /// Set when the chunk met something it cannot leave open (a macro defined from macros not
    /// known yet, or values past the expansion limit): it is then read again in order.
    private(set) var abandoned = false

    /// True when the value just parsed uses a macro not known yet.
    var valueIsPending: Bool { !current.isEmpty }

    mutating func beginValue() {
        current.removeAll(keepingCapacity: true)
        partStart = 0
    }

    mutating func markPartStart(at offset: Int) { partStart = offset }

    mutating func noteUse(lower: String, spelled: String, offset: Int, problemIndex: Int) {
        checks.append(Check(lower: lower, spelled: spelled, offset: offset, problemIndex: problemIndex, isRedefinition: false))
        current.append(Insertion(check: checks.count - 1, at: partStart))
    }

    mutating func noteRedefinitionCheck(lower: String, spelled: String, offset: Int, problemIndex: Int) {
        checks.append(Check(lower: lower, spelled: spelled, offset: offset, problemIndex: problemIndex, isRedefinition: true))
    }

    mutating func notePendingText(entry: Int, text: Int) {
        texts.append(PendingText(entry: entry, text: text, insertions: current))
    }

    func hasPendingTexts(inEntry entry: Int) -> Bool { texts.last?.entry == entry }

    mutating func abandon() { abandoned = true }
}

extension DeferredMacros.PendingText {
    /// The text with each insertion's expansion put in place.
    func resolve(_ placeholder: String, expansions: [String]) -> String {
        if placeholder.isEmpty && insertions.count == 1 {
            return expansions[insertions[0].check]  // a value that is one macro: no copy
        }
        let bytes = Array(placeholder.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + insertions.reduce(0) { $0 + expansions[$1.check].utf8.count })
        var copied = 0
        for insertion in insertions {
            result.append(contentsOf: bytes[copied..<insertion.at])
            result.append(contentsOf: expansions[insertion.check].utf8)
            copied = insertion.at
        }
        result.append(contentsOf: bytes[copied...])
        return String(decoding: result, as: UTF8.self)
    }
}
