import GRDB
// The FTS5 extension API is in SQLite's header, which GRDB reaches through its GRDBSQLite module.
import GRDBSQLite

/// `bibread_rank(page_text)`: an FTS5 auxiliary function that ranks the pages of one document
/// for `FullTextIndex.hits`. It is bm25 (k1 = 1.2, b = 0.75, lower is better) with every query
/// word weighted the same.
///
/// FTS5's `bm25()` first counts, over the whole index, the pages holding each query word or
/// phrase (the words' inverse document frequency). For a phrase of common words that means
/// evaluating the phrase on every page of the index again, for every query: most of the time
/// a `hits` call took. Between the pages of one document the weights hardly change the order.
enum PageRankFunction {
    static let name = "bibread_rank"

    /// Registers the function on a connection.
    static func register(_ db: Database) {
        let api = FTS5.api(db)
        _ = api.pointee.xCreateFunction(UnsafeMutablePointer(mutating: api), name, nil, rank, nil)
    }

    private static let rank: fts5_extension_function = { api, context, result, _, _ in
        guard let api = api?.pointee, let xInstCount = api.xInstCount, let xInst = api.xInst,
              let xColumnSize = api.xColumnSize, let xRowCount = api.xRowCount,
              let xColumnTotalSize = api.xColumnTotalSize, let xPhraseCount = api.xPhraseCount else {
            sqlite3_result_null(result)
            return
        }
        let k1 = 1.2
        let b = 0.75
        var rows: sqlite3_int64 = 0
        var tokens: sqlite3_int64 = 0
        var length: Int32 = 0
        var instances: Int32 = 0
        guard xRowCount(context, &rows) == SQLITE_OK, xColumnTotalSize(context, 0, &tokens) == SQLITE_OK,
              xColumnSize(context, 0, &length) == SQLITE_OK, xInstCount(context, &instances) == SQLITE_OK else {
            sqlite3_result_null(result)
            return
        }
        let phrases = Int(max(0, xPhraseCount(context)))
        var frequencies = [Int](repeating: 0, count: phrases)
        for instance in 0..<instances {
            var phrase: Int32 = 0
            var column: Int32 = 0
            var offset: Int32 = 0
            if xInst(context, instance, &phrase, &column, &offset) == SQLITE_OK, Int(phrase) < phrases {
                frequencies[Int(phrase)] += 1
            }
        }
        let average = rows > 0 ? Double(tokens) / Double(rows) : 1
        let norm = k1 * (1 - b + b * Double(length) / max(1, average))
        var score = 0.0
        for frequency in frequencies where frequency > 0 {
            score += Double(frequency) * (k1 + 1) / (Double(frequency) + norm)
        }
        sqlite3_result_double(result, -score)
    }
}
