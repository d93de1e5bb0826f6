import Foundation
import PropertyList

/// The linked files, web links and link problems of one reference.
public struct Links: Sendable {
    public var files: [LinkedFile] = []
    public var urls: [String] = []
    public var problems: [LinkProblem] = []

    /// Adds a web link unless it is there already; a DOI link in any of its forms
    /// (`http://dx.doi.org/…`) becomes `https://doi.org/DOI`, and a DOI counts once whatever
    /// its case (DOIs ignore case).
    mutating func appendURL(_ url: String) {
        let (link, isDOI) = LinkPaths.normalisedLink(url)
        guard !urls.contains(where: { $0 == link || (isDOI && LinkPaths.equalIgnoringASCIICase($0, link)) }) else { return }
        urls.append(link)
    }
}
