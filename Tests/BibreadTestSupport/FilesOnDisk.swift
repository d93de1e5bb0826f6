import BibModel
import Foundation

/// A locator for the model's tests: a linked file is here when a regular file is at its path;
/// no library is synced. (The product's locator, `SyncEngine.LinkedFileLocator`, also knows the
/// caches of synced libraries; its own tests are in SyncEngineTests.)
public struct FilesOnDisk: LinkedFileLocating {
    public init() {}

    public func location(of file: LinkedFile) -> FileLocation {
        var isDirectory: ObjCBool = false
        let found = FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        return found ? .local(file.path) : .missing
    }

    public func isSyncedCopy(_ path: String) -> Bool { false }
}
