import Foundation

/// How long a sync waits before the next: `sync_every = "30m"` in config.toml, `--every 30m` on
/// the command line. Written as a number and a unit (`s`, `m`, `h`, `d`), or several of them
/// (`1h30m`); a plain number is seconds.
public struct SyncInterval: Sendable, Equatable, CustomStringConvertible {
    /// The interval in whole seconds (at least 1).
    public let seconds: Int

    /// An interval of `seconds` (at least 1).
    public init(seconds: Int) {
        self.seconds = max(1, seconds)
    }

    /// The most an interval may be: a year (a longer one is surely a typing mistake).
    public static let longest = 366 * 86_400

    /// Reads `30m`, `2h`, `90s`, `1h30m`, `45`; nil for anything else, for zero and for more than
    /// a year.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !trimmed.isEmpty else { return nil }
        if let plain = Int(trimmed) {
            guard plain >= 1, plain <= Self.longest else { return nil }
            self.init(seconds: plain)
            return
        }
        var total = 0
        var number = ""
        for character in trimmed {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            let unit: Int
            switch character {
            case "s": unit = 1
            case "m": unit = 60
            case "h": unit = 3_600
            case "d": unit = 86_400
            default: return nil
            }
            guard let value = Int(number), value <= Self.longest else { return nil }
            total += value * unit
            number = ""
            guard total <= Self.longest else { return nil }
        }
        guard number.isEmpty, total >= 1 else { return nil }
        self.init(seconds: total)
    }

    /// What a wrong interval gets told.
    public static let expected = "an interval such as \"30m\", \"2h\" or \"90s\" (s, m, h, d; at most a year)"

    /// The shortest way to write it back: `30m`, `1h30m`, `90s` reads as `1m30s`.
    public var description: String {
        var rest = seconds
        var text = ""
        for (unit, name) in [(86_400, "d"), (3_600, "h"), (60, "m"), (1, "s")] where rest >= unit {
            text += "\(rest / unit)\(name)"
            rest %= unit
        }
        return text
    }
}
