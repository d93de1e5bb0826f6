/// Where a reference's PDFs are: on this machine, only on the remote its synced library
/// came from (listed there, not downloaded yet), or nowhere.
public enum PDFPlace: Int, Sendable {
    case nowhere = 0, here = 1, remoteOnly = 2

    /// The place of a reference whose PDFs are at `locations` (one per PDF).
    public init(locations: [FileLocation]) {
        if locations.contains(where: \.isHere) {
            self = .here
        } else {
            self = locations.contains(.remoteOnly) ? .remoteOnly : .nowhere
        }
    }
}
