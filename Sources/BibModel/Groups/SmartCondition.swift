import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One condition of a BibDesk smart group: `key comparison value`, whose meaning depends on the
/// kind of field (text, date, linked files, boolean), as BibDesk defines it.
public struct SmartCondition: Sendable, Equatable {
    public let key: String
    public let comparison: Int
    public let value: String

    public init(key: String, comparison: Int, value: String) {
        self.key = key
        self.comparison = comparison
        self.value = value
    }

    /// The fields BibDesk treats as dates.
    static let dateFields: Set<String> = ["date-added", "date-modified"]

    /// A test for entries, with whatever can be worked out once (date spans) worked out.
    func matcher(context: GroupContext) -> (Entry, Int) -> Bool {
        let field = key.lowercased()
        if field.isEmpty { return { _, _ in true } }
        if SmartCondition.dateFields.contains(field) {
            guard let span = dateSpan(context: context) else { return { _, _ in false } }
            let dates = context.numbers("date " + field) { entry in
                entry.value(named: field).flatMap(BibDeskDate.parse)?.timeIntervalSince1970 ?? .nan
            }
            return { _, position in
                let seconds = dates[position]
                return !seconds.isNaN && span.contains(Date(timeIntervalSince1970: seconds))
            }
        }
        switch field {
        case "local file":
            return { entry, _ in self.matchesLinked(entry.links.files.map(\.path)) }
        case "remote url":
            return { entry, _ in self.matchesLinked(entry.links.urls) }
        default:
            break
        }
        let isPerson = field == "author" || field == "editor"
        if context.isBoolean(field) {
            let wanted = SmartCondition.isTrue(value)
            let negated = [1, 3, 5].contains(comparison)
            let flags = context.numbers("yes " + field) { entry in SmartCondition.isTrue(self.fieldText(entry, field)) ? 1 : 0 }
            return { _, position in ((flags[position] == 1) == wanted) != negated }
        }
        if comparison == 0 || comparison == 1 {
            // "In group": the field's parts (or people), lower case, each framed by U+0001.
            let needle = Array("\u{1}\(value.lowercased())\u{1}".utf8)
            let parts = context.bytes("parts " + field) { entry in
                let text = self.fieldText(entry, field)
                let names = isPerson ? NameList(raw: text).names : []
                let parts = isPerson
                    ? names.map { $0.fullName.lowercased() } + names.map { $0.shortName.lowercased() }
                    : text.lowercased().split(whereSeparator: { ",:;".contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }
                return Array(("\u{1}" + parts.joined(separator: "\u{1}\u{1}") + "\u{1}").utf8)
            }
            return { _, position in
                let found = SmartCondition.contains(parts[position], needle)
                return comparison == 0 ? found : !found
            }
        }
        let texts = context.texts(field) { entry in self.fieldText(entry, field) }
        if comparison == 8 || comparison == 9, let bound = Double(value) {
            let numbers = context.numbers("number " + field) { entry in
                Double(self.fieldText(entry, field).trimmingCharacters(in: .whitespaces)) ?? .nan
            }
            return { _, position in
                let number = numbers[position]
                if number.isNaN { return self.matchesText(texts[position], isPerson: false) }
                return comparison == 8 ? number < bound : number > bound
            }
        }
        if !isPerson, [2, 3, 4, 5, 6, 7].contains(comparison) {
            // The common text comparisons, on the lower-case bytes.
            let needle = Array(value.lowercased().utf8)
            let lowered = context.bytes("lowered " + field) { entry in Array(self.fieldText(entry, field).lowercased().utf8) }
            return { _, position in SmartCondition.compare(lowered[position], needle, comparison) }
        }
        return { _, position in self.matchesText(texts[position], isPerson: isPerson) }
    }

    /// True when `needle` occurs in `haystack`: memchr finds the needle's rarest byte (by English
    /// letter frequency), then memcmp checks the whole needle around it.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard haystack.count >= needle.count else { return false }
        let anchor = rarestIndex(of: needle)
        let anchorByte = Int32(needle[anchor])
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return false }
                // The anchor can only sit where the whole needle still fits around it.
                var offset = anchor
                let last = hay.count - pin.count + anchor
                while offset <= last, let found = memchr(base + offset, anchorByte, last - offset + 1) {
                    let position = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    if memcmp(base + position - anchor, pinBase, pin.count) == 0 { return true }
                    offset = position + 1
                }
                return false
            }
        }
    }

    /// The position of the needle's least common byte (letters ranked by English frequency;
    /// anything else counts as rare).
    private static func rarestIndex(of needle: [UInt8]) -> Int {
        let common = Array("etaoinshrdlcumwfgypbvkjxqz".utf8)
        var best = 0
        var bestRank = -1
        for (index, byte) in needle.enumerated() {
            let rank = common.firstIndex(of: byte) ?? (byte == 0x20 ? -2 : 100)
            if rank > bestRank {
                best = index
                bestRank = rank
            }
        }
        return best
    }

    /// Comparisons 2 to 7 (contains, does not contain, equal, not equal, starts with, ends with)
    /// on lower-case UTF-8 bytes.
    static func compare(_ haystack: [UInt8], _ needle: [UInt8], _ comparison: Int) -> Bool {
        switch comparison {
        case 2, 3:
            let found = SmartCondition.contains(haystack, needle)
            return comparison == 2 ? found : !found
        case 4: return haystack == needle
        case 5: return haystack != needle
        case 6: return haystack.starts(with: needle)
        case 7: return haystack.count >= needle.count && haystack.suffix(needle.count).elementsEqual(needle)
        default: return false
        }
    }

    func fieldText(_ entry: Entry, _ field: String) -> String {
        switch field {
        case "cite key": return entry.key
        case "bibtex type": return entry.type
        case "any field":
            return ([entry.key] + entry.fields.map { entry.decodedText(of: $0) }).joined(separator: "\n")
        default: return entry.value(named: field) ?? ""
        }
    }

    // MARK: - Text

    func matchesText(_ text: String, isPerson: Bool) -> Bool {
        let haystack = text.lowercased()
        let needle = value.lowercased()
        switch comparison {
        case 0, 1:
            let names = isPerson ? NameList(raw: text).names : []
            let parts = isPerson
                ? names.map { $0.fullName.lowercased() } + names.map { $0.shortName.lowercased() }
                : haystack.split(whereSeparator: { ",:;".contains($0) }).map { $0.trimmingCharacters(in: .whitespaces) }
            let found = parts.contains(needle)
            return comparison == 0 ? found : !found
        case 2: return haystack.contains(needle)
        case 3: return !haystack.contains(needle)
        case 4: return haystack == needle
        case 5: return haystack != needle
        case 6: return haystack.hasPrefix(needle)
        case 7: return haystack.hasSuffix(needle)
        case 8, 9:
            let ordered: Bool
            if let left = Double(haystack.trimmingCharacters(in: .whitespaces)), let right = Double(needle) {
                ordered = comparison == 8 ? left < right : left > right
            } else {
                if haystack.isEmpty { return false }
                ordered = comparison == 8 ? haystack < needle : haystack > needle
            }
            return ordered
        default: return false
        }
    }

    // MARK: - Yes/no fields (`Read`, `Sync`, any field whose values are yes or no)

    /// True for `1`, `y`, `yes`, `true`, `oui` in any case.
    public static func isTrue(_ text: String) -> Bool {
        ["1", "y", "yes", "true", "oui"].contains(text.trimmingCharacters(in: .whitespaces).lowercased())
    }

    // MARK: - Linked files and URLs

    private func matchesLinked(_ links: [String]) -> Bool {
        let needle = value.lowercased()
        let count = Int(value) ?? 0
        switch comparison {
        case 0: return links.count == count
        case 1: return links.count != count
        case 2: return links.count > count
        case 3: return links.count < count
        case 4: return links.contains { $0.lowercased().contains(needle) }
        case 5: return !links.contains { $0.lowercased().contains(needle) }
        case 6: return links.contains { $0.lowercased().hasPrefix(needle) }
        case 7: return links.contains { $0.lowercased().hasSuffix(needle) }
        default: return false
        }
    }

    // MARK: - Dates

    /// The time span a date condition accepts, worked out once per evaluation; `inverted` when
    /// the condition accepts everything outside it (`not in the last N`).
    struct DateSpan {
        let start: Date
        let end: Date
        let inverted: Bool

        func contains(_ date: Date) -> Bool {
            (date >= start && date < end) != inverted
        }
    }

    func dateSpan(context: GroupContext) -> DateSpan? {
        let calendar = context.calendar
        let now = context.now
        let numbers = value.split(separator: " ").compactMap { Int($0) }
        func unit(_ code: Int) -> Calendar.Component {
            switch code {
            case 2: return .weekOfYear
            case 3: return .month
            case 4: return .year
            default: return .day
            }
        }
        /// The start of the period `back` periods before the one holding now.
        func periodStart(_ component: Calendar.Component, back: Int) -> Date {
            let current = calendar.dateInterval(of: component, for: now)?.start ?? now
            return calendar.date(byAdding: component, value: -back, to: current) ?? current
        }
        func periods(_ component: Calendar.Component, from older: Int, to newer: Int) -> DateSpan {
            DateSpan(start: periodStart(component, back: older), end: periodStart(component, back: newer - 1), inverted: false)
        }
        let future = Date.distantFuture
        switch comparison {
        case 0: return periods(.day, from: 0, to: 0)
        case 1: return periods(.day, from: 1, to: 1)
        case 2: return periods(.weekOfYear, from: 0, to: 0)
        case 3: return periods(.weekOfYear, from: 1, to: 1)
        case 4:
            guard numbers.count >= 2 else { return nil }
            return periods(unit(numbers[1]), from: numbers[0], to: numbers[0])
        case 5, 6:
            guard numbers.count >= 2 else { return nil }
            return DateSpan(start: periodStart(unit(numbers[1]), back: max(0, numbers[0] - 1)), end: future,
                            inverted: comparison == 6)
        case 7:
            guard numbers.count >= 3 else { return nil }
            return periods(unit(numbers[2]), from: max(numbers[0], numbers[1]), to: min(numbers[0], numbers[1]))
        case 8, 9, 10:
            guard let day = BibDeskDate.parse(value), let interval = calendar.dateInterval(of: .day, for: day) else { return nil }
            switch comparison {
            case 8: return DateSpan(start: interval.start, end: interval.end, inverted: false)
            case 9: return DateSpan(start: interval.end, end: future, inverted: false)
            default: return DateSpan(start: Date.distantPast, end: interval.start, inverted: false)
            }
        case 11:
            let bounds = value.components(separatedBy: " to ").compactMap(BibDeskDate.parse)
            guard bounds.count == 2, let first = calendar.dateInterval(of: .day, for: bounds[0]),
                  let last = calendar.dateInterval(of: .day, for: bounds[1]) else { return nil }
            return DateSpan(start: first.start, end: last.end, inverted: false)
        default:
            return nil
        }
    }
}
