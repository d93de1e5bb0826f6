import GRDB

/// How an error of one of bibread's SQLite stores (the state store, the full-text index, a
/// cache manifest) is said in a message. GRDB describes an SQLite error with the statement that
/// failed ("SQLite error 26: file is not a database - while executing `PRAGMA journal_mode =
/// WAL`"): a message says what SQLite said and its code, not bibread's SQL.
public enum StoreErrorText {
    /// `error` for a message: SQLite's own words and code for a database error, else the
    /// error's description.
    public static func describe(_ error: any Error) -> String {
        guard let database = error as? DatabaseError else { return "\(error)" }
        return "\(database.message ?? "an SQLite error") (SQLite error \(database.resultCode.rawValue))"
    }
}
