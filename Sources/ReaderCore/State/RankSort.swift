/// The list's rows in the order of the sort's ranks, as `rows.sort` by rank gives them (ties
/// keep their order), by counting when the rows are many: the first key of a search shows most
/// of the library, which a comparison sort took milliseconds to order on every key.
enum RankSort {
    /// `rows` (positions into `rank`) ordered by `rank`, ascending or descending, stable.
    static func sorted(_ rows: [Int], by rank: [Int32], descending: Bool) -> [Int] {
        guard rows.count >= countingMinimum, let low = rows.lazy.map({ rank[$0] }).min(),
              let high = rows.lazy.map({ rank[$0] }).max(), Int(high) - Int(low) < 4 * rows.count
        else { return comparisonSorted(rows, by: rank, descending: descending) }
        // Where each rank's rows start in the result (ranks in the result's order), then each
        // row placed in its rank's run, in the order it comes.
        let span = Int(high) - Int(low) + 1
        var starts = [Int](repeating: 0, count: span + 1)
        for row in rows { starts[slot(rank[row], low: low, span: span, descending: descending) + 1] += 1 }
        for index in 0..<span { starts[index + 1] += starts[index] }
        var result = [Int](repeating: 0, count: rows.count)
        for row in rows {
            let slot = slot(rank[row], low: low, span: span, descending: descending)
            result[starts[slot]] = row
            starts[slot] += 1
        }
        return result
    }

    /// The straightforward order: a (stable) comparison sort by rank.
    static func comparisonSorted(_ rows: [Int], by rank: [Int32], descending: Bool) -> [Int] {
        var rows = rows
        rows.sort { descending ? rank[$0] > rank[$1] : rank[$0] < rank[$1] }
        return rows
    }

    /// Fewer rows are sorted by comparison.
    static let countingMinimum = 512

    @inline(__always) private static func slot(_ value: Int32, low: Int32, span: Int, descending: Bool) -> Int {
        let offset = Int(value) - Int(low)
        return descending ? span - 1 - offset : offset
    }
}
