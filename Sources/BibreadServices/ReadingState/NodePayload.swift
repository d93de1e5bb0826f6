import Foundation
import ReadingList

/// What a bookmark or a notemark holds besides its name, as the `target` of its `addNode`
/// operation: a bookmark's reference (cite key, library, pages) or a notemark's text, as a
/// small JSON object. Folders hold nothing.
struct NodePayload: Codable, Equatable, Sendable {
    var citeKey: String?
    var library: String?
    var page: Int?
    var lastPage: Int?
    var printedPage: String?
    var text: String?

    /// The payload of a bookmark to `reference`.
    init(reference: PageReference) {
        citeKey = reference.citeKey
        library = reference.library
        page = reference.page
        lastPage = reference.lastPage
        printedPage = reference.printedPage
    }

    /// The payload of a notemark with `text`.
    init(text: String) {
        self.text = text
    }

    /// The payload as the text of an operation's target.
    var target: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // Plain strings and numbers: encoding cannot fail.
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The payload a target holds; nil when it is not one (an operation from a later version,
    /// or a hostile one: the node then shows with its name only).
    init?(target: String?) {
        guard let target, let value = try? JSONDecoder().decode(NodePayload.self, from: Data(target.utf8)) else { return nil }
        self = value
    }

    /// The reference of a bookmark's payload; nil when it has no cite key or no valid page.
    var reference: PageReference? {
        guard let citeKey, !citeKey.isEmpty, let page, page >= 1 else { return nil }
        return PageReference(citeKey: citeKey, library: library, page: page,
                             lastPage: lastPage.flatMap { $0 >= page ? $0 : nil }, printedPage: printedPage)
    }
}
