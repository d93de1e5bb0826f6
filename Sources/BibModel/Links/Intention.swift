/// What a reader means to do with the references a link names.
public enum Intention: String, CaseIterable, Sendable, Codable {
    case read, study, cite, listen
}
