import BibModel
import BibreadValues
import TOMLKit

/// The "open with" registry: the shipped handlers, extended and overridden by the user's.
public struct HandlerRegistry: Sendable, Equatable {
    /// Every entry, shipped ones first in their order (an overridden one keeps its place), then
    /// the user's new ones in theirs.
    public private(set) var entries: [HandlerEntry]

    /// A registry of exactly these entries (not validated: ``load(builtin:user:userPath:)`` is
    /// the validating way in; ``CommandBuilder`` checks templates again before running).
    public init(entries: [HandlerEntry]) {
        self.entries = entries
    }

    /// The entry with this id.
    public func entry(id: String) -> HandlerEntry? {
        entries.first { $0.id == id }
    }

    /// The entries serving `intention`, in registry order; all of them for nil.
    public func entries(for intention: Intention?) -> [HandlerEntry] {
        guard let intention else { return entries }
        return entries.filter { $0.intentions.contains(intention) }
    }

    /// Loads the shipped registry, then the user's `[[handler]]` tables on top.
    ///
    /// `user` is TOML text (`config.toml` itself, whose other keys are ignored here, or a file of
    /// its own) and `userPath` names it in messages. A user table whose id is a shipped one's
    /// replaces it in place, taking the fields it leaves out from it (so `id = "zathura"` with
    /// `always_show = true` is enough); `disabled = true` removes the entry with that id. A table
    /// with a problem is skipped (an overridden shipped entry then stays) and the rest still
    /// load. Problems read `path:line:col: handler 'id': message` (`path: …` when no place is
    /// known, as for inline tables).
    public static func load(builtin: String = BuiltinHandlers.toml, user: String?, userPath: String)
        -> (registry: HandlerRegistry, problems: [String])
    {
        var loader = RegistryLoader()
        loader.apply(builtin, path: BuiltinHandlers.path, overriding: false)
        if let user { loader.apply(user, path: userPath, overriding: true) }
        return (HandlerRegistry(entries: loader.entries), loader.problems)
    }
}
