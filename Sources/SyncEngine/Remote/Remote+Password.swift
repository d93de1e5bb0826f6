import Foundation

extension Remote {
    /// Moves a password given in the URL (`user:password@`) to `store`, under the remote's
    /// name: the URL keeps the user name only, and the remote's credentials become
    /// ``CredentialSource/stored``. Returns false, changing nothing, when the URL holds no password.
    public mutating func movePassword(to store: CredentialStore) throws -> Bool {
        guard let login = URLText.login(in: url) else { return false }
        try store.save(login, for: name)
        url = URLText.withoutPassword(url)
        credentials = .stored
        return true
    }
}
