import BibModel
import Foundation

/// Sizes in messages: `16 MB`, `512 KB`, `100 bytes`.
enum ByteLimit {
    static func describe(_ bytes: Int64) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MB" }
        if bytes >= 1 << 10 && bytes % (1 << 10) == 0 { return "\(bytes >> 10) KB" }
        return "\(bytes) bytes"
    }
}
