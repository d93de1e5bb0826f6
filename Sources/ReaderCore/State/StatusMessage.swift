import BibModel
import Foundation
import ReadingList

/// A message on the status line.
public struct StatusMessage: Sendable, Equatable {
    public let text: String
    public let isError: Bool

    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}
