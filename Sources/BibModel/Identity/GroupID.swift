/// Names a group: one of bibread's built-in groups, or the path of names from the top of the
/// tree to a group the library keeps or a field group (`Keywords/logic`).
///
/// Written as text (sessions, `--group`, the reader's rows) it is the path joined with `/`; a
/// top-level name that is a built-in group's, in any case, is that built-in group.
public enum GroupID: Hashable, Sendable, CustomStringConvertible {
    case builtIn(BuiltInGroup)
    /// Names from the top of the tree down (never empty).
    case path([String])

    /// Every reference.
    public static let all = GroupID.builtIn(.all)

    /// The group a path written as text names (`All`, `Keywords/logic`).
    public init(path: String) {
        if let builtIn = BuiltInGroup(named: path) {
            self = .builtIn(builtIn)
        } else {
            self = .path(path.split(separator: "/", omittingEmptySubsequences: false).map(String.init))
        }
    }

    /// The names from the top of the tree down.
    public var names: [String] {
        switch self {
        case .builtIn(let group): return [group.name]
        case .path(let names): return names
        }
    }

    /// The path as text: the names joined with `/`.
    public var path: String { names.joined(separator: "/") }

    public var description: String { path }

    /// The built-in group this is, if it is one.
    public var builtIn: BuiltInGroup? {
        if case .builtIn(let group) = self { return group }
        return nil
    }

    /// The group named `name` inside this one.
    public func child(named name: String) -> GroupID {
        .path(names + [name])
    }

    /// Whether this group is inside `ancestor` (at any depth).
    public func isInside(_ ancestor: GroupID) -> Bool {
        let outer = ancestor.names
        return names.count > outer.count && Array(names.prefix(outer.count)) == outer
    }
}
