import BibModel
import Foundation
import PDFText

/// Does the work effects ask for (everything that reads the whole library, or a PDF) and
/// reports the results as events. The app runs it on background queues; tests call it directly.
public final class BackgroundWork: @unchecked Sendable {
    public let library: Library
    private let context: GroupContext
    private let lock = NSLock()
    private var groupsByPath: [String: Group] = [:]
    private var lastRead: [String: Double]
    private var documents: [String: PDFDocument] = [:]

    /// Work for `library`; `lastRead` gives the last reading time per reference address.
    public init(library: Library, groups: [Group], lastRead: [String: Double] = [:], now: Date = Date()) {
        self.library = library
        context = GroupContext(library: library, now: now)
        self.lastRead = lastRead
        register(groups)
    }

    /// Makes groups findable by the paths the groups pane uses (`Parent/Child`).
    public func register(_ groups: [Group]) {
        var paths: [String: Group] = [:]
        func add(_ group: Group, parent: String?) {
            let path = parent.map { "\($0)/\(group.name)" } ?? group.name
            if paths[path] == nil { paths[path] = group }
            for child in group.children { add(child, parent: path) }
        }
        for group in groups { add(group, parent: nil) }
        lock.withLock { groupsByPath.merge(paths) { old, _ in old } }
    }

    /// Notes that a reference was just opened for reading.
    public func recordReading(_ address: String, at time: Double) {
        lock.withLock { lastRead[address] = time }
    }

    /// Performs one effect, posting its results (several for long work such as counting).
    public func perform(_ effect: Effect, post: (Event) -> Void) {
        switch effect {
        case .loadFieldGroups:
            let fieldGroups = GroupCatalog.fieldGroups(of: library)
            register(fieldGroups)
            post(.groupsReady(GroupCatalog.savedGroups(of: library) + fieldGroups))
        case .countGroups(let paths):
            var batch: [String: Int] = [:]
            var lastPost = Date()
            for path in paths {
                guard let group = group(at: path), group.unavailableReason == nil else { continue }
                batch[path] = group.members(in: library, context: context).count
                if Date().timeIntervalSince(lastPost) > 0.1 {
                    post(.groupCounts(batch))
                    batch = [:]
                    lastPost = Date()
                }
            }
            if !batch.isEmpty { post(.groupCounts(batch)) }
        case .computeGroupMembers(let path):
            // An unknown path may be a field group that is not loaded yet: `groupsReady` asks again.
            guard let group = group(at: path) else { return }
            post(.groupMembers(path: path, members: group.members(in: library, context: context)))
        case .buildSearchIndex:
            post(.searchIndexReady(SearchIndex(entries: library.entries)))
        case .computeSort(let key):
            post(.sortReady(key, rank: SortOrder.rank(library.entries, by: key, lastRead: lock.withLock { lastRead })))
        case .computeMarks:
            post(.marksReady(library.entries.map(BackgroundWork.marks(of:))))
        case .openDocument(let path):
            do {
                let document = try PDFDocument(path: path)
                lock.withLock { documents[path] = document }
                post(.documentOpened(path: path, pageCount: document.pageCount, title: nil))
            } catch {
                post(.documentFailed(path: path, message: "Cannot open \(path): \(error)"))
            }
        case .extractPage(let path, let page):
            guard let document = lock.withLock({ documents[path] }) else { return }
            do {
                post(.pageText(path: path, page: page, text: try document.text(ofPage: page)))
            } catch {
                post(.documentFailed(path: path, message: "Page \(page): \(error)"))
            }
        case .saveSession, .recordReading, .redrawAll, .quit:
            break
        }
    }

    private func group(at path: String) -> Group? {
        lock.withLock { groupsByPath[path] }
    }

    /// The list marks of one reference (it looks at the disk for its PDFs).
    static func marks(of entry: Entry) -> ReferenceMarks {
        var marks: ReferenceMarks = []
        if entry.links.files.contains(where: { $0.isPDF && $0.exists }) { marks.insert(.hasPDF) }
        if let read = entry.decoded("read"), SmartCondition.isTrue(read) { marks.insert(.read) }
        return marks
    }
}

/// Sort orders of the reference list.
public enum SortOrder {
    /// The rank of each entry (by position) when sorted ascending by `key`; ties keep file order.
    public static func rank(_ entries: [Entry], by key: SortKey, lastRead: [String: Double] = [:]) -> [Int32] {
        let order: [Int]
        switch key {
        case .author:
            let keys = entries.map { entry -> String in
                guard let first = entry.creators.names.first else { return "\u{10FFFF}" }
                return Folding.fold([first.last, first.first, first.von].joined(separator: " "))
            }
            order = entries.indices.sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : $0 < $1 }
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
}
