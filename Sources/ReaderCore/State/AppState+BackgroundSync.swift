import BibModel

/// Syncs the reader starts on its own (on opening a synced library, every `sync_every`), and
/// the question when quitting during a sync (issue 30).
extension AppState {
    /// Marks a sync as started; returns the group whose PDFs it brings (nil: a built-in group is
    /// shown, none).
    mutating func startSync(automatic: Bool) -> GroupID? {
        let group = activeGroup.builtIn == nil ? activeGroup : nil
        syncing = (0, 0, "")
        runningSync = (group, automatic)
        return group
    }

    /// A background sync of the library's remote, unless one runs, the library is not a
    /// remote's, or the reader is quitting. Its progress is on the status line; it says nothing
    /// before it ends.
    public mutating func syncOnItsOwn() -> [Effect] {
        guard library != nil, backgroundSync.remote != nil, syncing == nil, !isQuitting else { return [] }
        let group = startSync(automatic: true)
        return [.sync(.syncInBackground(group: group, shownGroup: activeGroup))]
    }

    /// `q` during a sync asks whether to finish it in the background (when it can be).
    mutating func askBeforeQuittingASync() -> [Effect]? {
        guard syncing != nil, backgroundSync.canDetach, let remote = backgroundSync.remote else { return nil }
        screen.show(.syncQuitQuestion(remote: remote))
        return []
    }

    /// The sync ended while the question was up: the reader quits, as `q` asked.
    mutating func quitOnceTheSyncEnded() -> [Effect]? {
        guard case .syncQuitQuestion? = screen.top else { return nil }
        screen.close(.syncQuitQuestion)
        isQuitting = true
        return [.app(.saveSession), .app(.quit)]
    }

    /// The question's keys: yes leaves the sync to `bibread sync` in the background and quits,
    /// no stops it and quits, Esc stays.
    mutating func handleSyncQuitQuestion(_ key: Key) -> [Effect] {
        guard case .syncQuitQuestion(let remote)? = screen.top else { return [] }
        let detach: Bool
        switch keymap.action(for: key, in: .question) {
        case .yes: detach = true
        case .no: detach = false
        case .cancel:
            screen.close(.syncQuitQuestion)
            return []
        default:
            return []
        }
        screen.close(.syncQuitQuestion)
        // The sync may have ended while the question was up: then there is nothing to stop.
        let effects: [Effect] = syncing == nil ? [] : [.sync(.endSyncForQuit(detach: detach, group: runningSync?.group))]
        if !effects.isEmpty { message = StatusMessage(detach ? "Finishing the sync of '\(remote)' in the background…" : "Stopping the sync…") }
        isQuitting = true
        return effects + [.app(.saveSession), .app(.quit)]
    }
}
