/// One row of the action table.
public struct ActionDefinition: Sendable {
    public let action: Action
    public let scope: ActionScope
    public let help: String
    public let defaultKeys: [Key]
}
