import BibModel
import Foundation
import FullText
import PDFText
import ReaderCore
import ReadingList
import SyncEngine

/// Sort orders of the reference list.
public enum SortOrder {
    /// The rank of each entry (by position) when sorted ascending by `key`; ties keep file order.
    public static func rank(_ entries: [Entry], by key: SortKey, lastRead: [String: Double] = [:]) -> [Int32] {
        let order: [Int]
        switch key {
        case .author:
            // The first creator's last name, then first names, each folded and without
            // punctuation (`Michael H` and `Michael H.` are one person), then the von part,
            // then the year; entries with no creators last.
            order = AuthorSortKeys(entries).order()
        case .year:
            let years = entries.map { entry in entry.year.flatMap { Int($0.prefix(4)) } ?? Int.min }
            order = entries.indices.sorted { years[$0] != years[$1] ? years[$0] < years[$1] : $0 < $1 }
        case .title:
            let titles = entries.map { entry -> String in
                let folded = Folding.fold(entry.title)
                return String(folded.drop { !$0.isLetter && !$0.isNumber })
            }
            order = entries.indices.sorted { titles[$0] != titles[$1] ? titles[$0] < titles[$1] : $0 < $1 }
        case .dateAdded:
            let dates = entries.map { entry in
                entry.raw("date-added") ?? entry.raw("creationdate") ?? entry.raw("timestamp") ?? entry.raw("added-at") ?? ""
            }
            order = entries.indices.sorted { dates[$0] != dates[$1] ? dates[$0] < dates[$1] : $0 < $1 }
        case .lastRead:
            let times = entries.map { lastRead[$0.address] ?? 0 }
            order = entries.indices.sorted { times[$0] != times[$1] ? times[$0] < times[$1] : $0 < $1 }
        }
        var rank = [Int32](repeating: 0, count: entries.count)
        for (index, position) in order.enumerated() { rank[position] = Int32(index) }
        return rank
    }

    /// A name part folded (case, accents) with punctuation dropped and white space single:
    /// `Michael H.` and `MICHAEL H` give `michael h`.
    static func normalizedName(_ part: String) -> String {
        Folding.fold(part)
            .split { !$0.isLetter && !$0.isNumber }
            .joined(separator: " ")
    }
}
