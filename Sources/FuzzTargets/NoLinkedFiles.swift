import BibModel

/// A locator for fuzzing: every linked file is missing, and no library is synced, so that group
/// evaluation never touches the disk whatever paths the input names.
struct NoLinkedFiles: LinkedFileLocating {
    func location(of file: LinkedFile) -> FileLocation { .missing }
    func isSyncedCopy(_ path: String) -> Bool { false }
}
