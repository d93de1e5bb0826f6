import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Dates as BibDesk writes them: `2023-09-14 20:09:08 +0200` (the time and zone may be missing).
enum BibDeskDate {
    static func parse(_ text: String) -> Date? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: " ")
        guard let day = parts.first else { return nil }
        let ymd = day.split(separator: "-").compactMap { Int($0) }
        guard ymd.count == 3 else { return nil }
        var hms = [0, 0, 0]
        if parts.count > 1 {
            let time = parts[1].split(separator: ":").compactMap { Int($0) }
            for (index, value) in time.prefix(3).enumerated() { hms[index] = value }
        }
        var offset = 0
        if parts.count > 2, let zone = Int(parts[2]) {
            offset = (zone / 100) * 3600 + (zone % 100) * 60
        }
        // Days from the civil date (proleptic Gregorian), then seconds.
        let (year, month, dayOfMonth) = (ymd[0], ymd[1], ymd[2])
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + dayOfMonth - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let seconds = days * 86_400 + hms[0] * 3600 + hms[1] * 60 + hms[2] - offset
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
