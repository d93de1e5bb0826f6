import BibModel
import BibreadValues
import Foundation

/// The bottom line: counts, group and search, messages, key hints.
enum StatusLine {
    static func draw(_ state: AppState, in rect: Rect, into screen: inout ScreenBuffer) {
        let style = Style(.status)
        screen.fill(x: rect.x, y: rect.y, width: rect.width, height: 1, style: style)
        let hints: [(String, String)] = state.searchFocused
            ? [("Enter", "keep"), ("Esc", "clear")]
            : [(keyName(.search, state), "search"), (keyName(.cycleSort, state), "sort"), (keyName(.showBookmarks, state), "bookmarks"),
               (keyName(.help, state), "help"), (keyName(.quit, state), "quit")]
        var hintText: [(String, Style)] = []
        for (key, label) in hints where !key.isEmpty {
            hintText.append((key, Style(.statusKey, bold: true)))
            hintText.append((" \(label)  ", style))
        }
        let hintWidth = hintText.reduce(0) { $0 + DisplayWidth.of($1.0) }
        let left: String
        var leftStyle = style
        if let waiting = state.waitingForRemote, state.syncing != nil || state.fetching != nil {
            left = "\(waiting) · Esc stops waiting"
            leftStyle = Style(.message, bold: true)
        } else if let sync = state.syncing, state.fetching == nil, state.runningSync?.automatic != true || state.message == nil {
            // A sync the reader started on its own leaves a message up until a key clears it.
            let percent = sync.total > 0 ? " \(sync.done * 100 / sync.total)%" : ""
            let file = sync.file.isEmpty ? "" : " · \((sync.file as NSString).lastPathComponent)"
            if state.runningSync?.automatic == true, sync.total == 0, let remote = state.backgroundSync.remote {
                // The .bib files come first, without a count of bytes.
                left = "Syncing '\(remote)' in the background… · \(keyName(.cancelTransfer, state)) stops it"
            } else {
                left = "Syncing\(percent) · \(ByteCount.format(max(0, sync.total - sync.done))) left\(file)"
            }
            leftStyle = Style(.message, bold: true)
        } else if let fetch = state.fetching {
            let name = (fetch.path as NSString).lastPathComponent
            let percent = fetch.total.map { $0 > 0 ? " \(fetch.bytes * 100 / $0)%" : "" } ?? ""
            let size = fetch.total.map { " of \(ByteCount.format($0))" } ?? ""
            left = "Downloading \(name)\(percent)\(size) · Esc cancels"
            leftStyle = Style(.message, bold: true)
        } else if let message = state.message {
            left = message.text
            leftStyle = Style(message.isError ? .error : .message, bold: message.isError)
        } else {
            var parts = ["\(Count.format(state.visible.count)) of \(Count.format(state.totalCount))"]
            parts.append(state.activeGroup.path)
            if !state.searchText.isEmpty { parts.append("search: \(state.searchText)") }
            if state.fullTextPending != nil { parts.append("searching the PDFs…") }
            if let indexing = state.indexing {
                parts.append("indexing PDFs \(Count.format(indexing.done)) of \(Count.format(indexing.total))")
            }
            left = parts.joined(separator: " · ")
        }
        // A message wins over the key hints when both do not fit.
        let showHints = rect.width - hintWidth > 30 && (state.message == nil || DisplayWidth.of(left) + hintWidth + 3 <= rect.width)
        let leftRoom = rect.width - 2 - (showHints ? hintWidth : 0)
        screen.write(DisplayWidth.truncate(left, to: max(0, leftRoom)), x: rect.x + 1, y: rect.y, style: leftStyle)
        guard showHints else { return }
        var x = rect.x + rect.width - hintWidth
        for (text, textStyle) in hintText { x += screen.write(text, x: x, y: rect.y, style: textStyle) }
    }

    private static func keyName(_ action: Action, _ state: AppState) -> String {
        state.keymap.keys(for: action).first?.description ?? ""
    }
}
