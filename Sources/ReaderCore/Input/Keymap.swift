/// Which action each key triggers, per scope: the defaults, with config.toml's rebindings.
public struct Keymap: Sendable {
    private var bindings: [ActionScope: [Key: Action]] = [:]
    private var keysByAction: [Action: [Key]] = [:]

    /// The default key map.
    public init() {
        for definition in ActionTable.definitions {
            keysByAction[definition.action] = definition.defaultKeys
        }
        rebuild()
    }

    /// Rebinds actions (config.toml `[keys]`): each listed action gets exactly the given keys.
    /// Returns one message per unknown action or key name, which are skipped.
    public mutating func rebind(_ overrides: [String: [String]]) -> [String] {
        var problems: [String] = []
        for (name, keyNames) in overrides.sorted(by: { $0.key < $1.key }) {
            guard let action = Action(rawValue: name) else {
                problems.append("unknown action '\(name)' in [keys] (known: \(Action.allCases.map(\.rawValue).joined(separator: ", ")))")
                continue
            }
            var keys: [Key] = []
            for keyName in keyNames {
                if let key = Key(name: keyName) {
                    keys.append(key)
                } else {
                    problems.append("unknown key '\(keyName)' for '\(name)' in [keys]")
                }
            }
            keysByAction[action] = keys
        }
        rebuild()
        return problems
    }

    private mutating func rebuild() {
        bindings = [:]
        for definition in ActionTable.definitions {
            for key in keysByAction[definition.action] ?? [] {
                bindings[definition.scope, default: [:]][key] = definition.action
            }
        }
    }

    /// The action a key triggers in a scope: its own bindings first, then those of the scopes
    /// it falls back to (a view's: moving; a text field's: the editing keys).
    public func action(for key: Key, in scope: ActionScope) -> Action? {
        for scope in scope.chain {
            if let action = bindings[scope]?[key] { return action }
        }
        return nil
    }

    /// Where `key` is in the keys of `action`, from 1 (`choose-numbered`: 1 is the first line).
    public func number(of key: Key, for action: Action) -> Int? {
        keys(for: action).firstIndex(of: key).map { $0 + 1 }
    }

    /// The keys bound to an action, as shown in help.
    public func keys(for action: Action) -> [Key] {
        keysByAction[action] ?? []
    }
}
