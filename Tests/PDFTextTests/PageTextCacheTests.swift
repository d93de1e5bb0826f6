import Dispatch
import Foundation
import PDFText
import Testing
import BibreadTestSupport

@Suite("page text cache")
struct PageTextCacheTests {
    func key(_ page: Int, _ mode: PageTextMode = .reading, document: String = "doc") -> PageTextCache.Key {
        PageTextCache.Key(document: document, page: page, mode: mode)
    }

    @Test func evictsTheLeastRecentlyUsedPage() {
        let cache = PageTextCache(capacity: 3)
        cache.insert("one", for: key(1))
        cache.insert("two", for: key(2))
        cache.insert("three", for: key(3))
        #expect(cache.text(for: key(1)) == "one") // 1 is now the most recent; 2 the least
        cache.insert("four", for: key(4))
        #expect(cache.text(for: key(2)) == nil)
        #expect(cache.keys == [key(4), key(1), key(3)])
        cache.insert("three again", for: key(3)) // replacing also counts as a use
        cache.insert("five", for: key(5))
        #expect(cache.keys == [key(5), key(3), key(4)])
        #expect(cache.text(for: key(3)) == "three again")
        #expect(cache.count == 3)
    }

    @Test func modesAndDocumentsAreDifferentKeys() {
        let cache = PageTextCache(capacity: 10)
        cache.insert("reading", for: key(1, .reading))
        cache.insert("layout", for: key(1, .layout))
        cache.insert("other", for: key(1, document: "other"))
        #expect(cache.text(for: key(1, .reading)) == "reading")
        #expect(cache.text(for: key(1, .layout)) == "layout")
        #expect(cache.text(for: key(1, document: "other")) == "other")
        cache.removeAll(ofDocument: "doc")
        #expect(cache.keys == [key(1, document: "other")])
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test func extractsOnlyOnAMiss() throws {
        let cache = PageTextCache(capacity: 2)
        var extractions = 0
        for _ in 0..<3 {
            let text = cache.text(for: key(7)) { extractions += 1; return "seven" }
            #expect(text == "seven")
        }
        #expect(extractions == 1)
        struct Failed: Error {}
        #expect(throws: Failed.self) { try cache.text(for: key(8)) { throw Failed() } }
        #expect(cache.text(for: key(8)) == nil)
    }

    @Test func aCapacityBelowOneHoldsOnePage() {
        let cache = PageTextCache(capacity: 0)
        cache.insert("a", for: key(1))
        cache.insert("b", for: key(2))
        #expect(cache.capacity == 1 && cache.keys == [key(2)])
    }

    @Test func staysConsistentUnderConcurrentUse() {
        let cache = PageTextCache(capacity: 16)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<2000 {
                let page = (index * 7 + thread) % 40
                if let text = cache.text(for: key(page)) {
                    precondition(text == "page \(page)")
                } else {
                    cache.insert("page \(page)", for: key(page))
                }
            }
        }
        #expect(cache.count == 16)
        #expect(cache.keys.allSatisfy { cache.text(for: $0) == "page \($0.page)" })
    }
}
