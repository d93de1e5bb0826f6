/// A property that must hold for every input and did not.
public struct InvariantViolation: Error, CustomStringConvertible {
    /// What failed, with the values involved.
    public let description: String

    init(_ description: String) {
        self.description = description
    }
}
