@testable import BibModel
import Testing

/// The group context's column cache keeps each kind of column apart: before, one `[String: Any]`
/// held them all, and a name asked for as numbers and as text (`read`: the Read flag, and the
/// field's text) replaced each other, so each was worked out again on every other use.
@Suite("column cache")
struct ColumnCacheTests {
    @Test func aNameAskedForAsNumbersAndAsTextIsWorkedOutOnceEach() {
        let cache = ColumnCache()
        var computed = 0
        for _ in 0..<3 {
            #expect(cache.remember(\.numbers, "read") { computed += 1; return [1, 0] } == [1, 0])
            #expect(cache.remember(\.texts, "read") { computed += 1; return ["yes", "no"] } == ["yes", "no"])
        }
        #expect(computed == 2)
    }
}
