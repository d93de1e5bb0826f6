/// A failure to read what the architecture test checks, said in words.
struct ArchitectureError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
