/// The values a handler's templates are filled with, for one reference (and page).
public struct HandlerValues: Sendable, Equatable {
    /// The values by placeholder; prefer the subscript, which treats `.text` as `.pageText`.
    public var values: [Placeholder: String]

    /// Values from a dictionary (a `.text` key is stored as `.pageText`).
    public init(_ values: [Placeholder: String] = [:]) {
        self.values = [:]
        for (placeholder, value) in values { self[placeholder] = value }
    }

    /// The value for a placeholder (`.text` and `.pageText` are one value).
    public subscript(placeholder: Placeholder) -> String? {
        get {
            if let value = values[placeholder.canonical] { return value }
            return placeholder.canonical == .pageText ? values[.text] : nil
        }
        set {
            if placeholder.canonical == .pageText { values[.text] = nil }
            values[placeholder.canonical] = newValue
        }
    }

    /// The placeholders that have a value (canonical), for ``HandlerRegistry/menu(for:available:path:environment:showAll:)``.
    public var available: Set<Placeholder> {
        Set(values.keys.map(\.canonical))
    }
}
