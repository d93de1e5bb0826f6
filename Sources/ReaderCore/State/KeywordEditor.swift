import BibModel
import Foundation

/// The keywords prompt (`t`): the reference's keywords, a field where words are typed (`word`
/// adds, `-word` removes, see `KeywordInput`), and Tab's completion from the library's words.
public struct KeywordEditor: Sendable, Equatable {
    /// The reference whose keywords change.
    public let address: EntryAddress
    /// Its keywords when the prompt opened, as the file writes them.
    public let current: [String]
    public internal(set) var field = TextField()
    /// The completion Tab is cycling through, until another key is pressed.
    public internal(set) var completion: Completion?
    /// What is wrong with the words typed (shown in the prompt; nothing is sent).
    public internal(set) var problem: String?

    /// Tab's candidates for the word at the end, and which one is in the field.
    public struct Completion: Sendable, Equatable {
        /// Where the completed word starts in the field.
        let start: Int
        let removing: Bool
        public let candidates: [String]
        /// The candidate in the field now.
        public internal(set) var index: Int
    }

    /// What Enter does with the words typed.
    public enum Outcome: Sendable, Equatable {
        /// These edits (removals first, so `-Graph graph` changes a keyword's case).
        case edits([EntryEdit])
        /// Nothing was typed.
        case nothing
        /// The words typed cannot be applied as they are; the prompt says why.
        case problem(String)
    }

    public init(address: EntryAddress, current: [String]) {
        self.address = address
        self.current = current
    }

    /// The edits the words typed ask for, or why they cannot be made: removing a keyword the
    /// reference does not have, adding one it has, or both adding and removing a word.
    public func outcome() -> Outcome {
        let have = Set(current.map { $0.lowercased() })
        var added: [String] = [], removed: [String] = []
        var problems: [String] = []
        for word in KeywordInput(field.characters).words where !word.text.isEmpty {
            if word.removing {
                guard !removed.contains(where: { $0.lowercased() == word.text.lowercased() }) else { continue }
                removed.append(word.text)
            } else {
                guard !added.contains(where: { $0.lowercased() == word.text.lowercased() }) else { continue }
                added.append(word.text)
            }
        }
        for word in removed where !have.contains(word.lowercased()) && !added.contains(word) {
            problems.append("\(address.text) has no keyword “\(word)”")
        }
        for word in added {
            if removed.contains(word) {
                problems.append("“\(word)” is both added and removed")
            } else if have.contains(word.lowercased()) && !removed.contains(where: { $0.lowercased() == word.lowercased() }) {
                problems.append("\(address.text) already has “\(word)”")
            }
        }
        if !problems.isEmpty { return .problem(problems.joined(separator: "; ")) }
        var edits: [EntryEdit] = []
        if !removed.isEmpty { edits.append(.removeKeywords(removed)) }
        if !added.isEmpty { edits.append(.addKeywords(added)) }
        return edits.isEmpty ? .nothing : .edits(edits)
    }

    /// The history's name of the edits, as `bibread tag` writes it (`tag knuth1984 +graphs -trees`).
    func command(for edits: [EntryEdit]) -> String {
        var words: [String] = []
        for edit in edits {
            switch edit {
            case .addKeywords(let added): words += added.map { "+" + $0 }
            case .removeKeywords(let removed): words += removed.map { "-" + $0 }
            default: break
            }
        }
        return (["tag"] + words).joined(separator: " ")
    }

    /// Tab (`forward`) or Shift-Tab: the next (or previous) candidate for the word at the end,
    /// from the reference's keywords for `-word`, else from the library's (`vocabulary`, most
    /// used first) leaving out those it has or that are typed already.
    mutating func complete(forward: Bool, vocabulary: KeywordVocabulary?) {
        problem = nil
        if var completion, completion.candidates.count > 1 {
            let count = completion.candidates.count
            completion.index = (completion.index + (forward ? 1 : count - 1)) % count
            self.completion = completion
            put(completion)
            return
        }
        guard completion == nil else { return }
        let word = KeywordInput.wordAtEnd(of: field.characters)
        let candidates: [String]
        if word.removing {
            candidates = current.filter { $0.lowercased().hasPrefix(word.prefix.lowercased()) }
        } else {
            guard let vocabulary else {
                problem = "Still collecting the library's keywords; try Tab again in a moment"
                return
            }
            let typed = KeywordInput(Array(field.characters[..<word.start])).words.map { $0.text.lowercased() }
            candidates = vocabulary.completions(of: word.prefix, excluding: Set(current.map { $0.lowercased() } + typed))
        }
        guard !candidates.isEmpty else {
            problem = word.removing ? "\(address.text) has no keyword starting with “\(word.prefix)”"
                : word.prefix.isEmpty ? "No other keyword in the library" : "No keyword in the library starts with “\(word.prefix)”"
            return
        }
        let completion = Completion(start: word.start, removing: word.removing, candidates: candidates,
                                    index: forward ? 0 : candidates.count - 1)
        self.completion = completion
        put(completion)
    }

    /// The field with the completion's candidate in place of the word at the end.
    private mutating func put(_ completion: Completion) {
        let before = String(field.characters[..<min(completion.start, field.characters.count)])
        field = TextField(before + KeywordInput.typed(completion.candidates[completion.index], removing: completion.removing))
    }

    /// A key other than Tab: it edits the field, and the completion ends.
    mutating func edit(_ action: Action?, key: Key) -> Bool {
        let done = field.apply(action, key: key)
        if done {
            completion = nil
            problem = nil
        }
        return done
    }
}
