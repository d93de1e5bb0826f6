import BibreadServices
import Testing

/// `sync_every` and `sync_on_open` in config.toml, and the intervals they take (issue 30).
@Suite("Sync intervals and the keys that keep syncing")
struct SyncIntervalTests {
    @Test func intervalsReadAsWrittenAndWriteBackShort() {
        #expect(SyncInterval(parsing: "30m")?.seconds == 1_800)
        #expect(SyncInterval(parsing: "1h30m")?.seconds == 5_400)
        #expect(SyncInterval(parsing: "90s")?.description == "1m30s")
        #expect(SyncInterval(parsing: "45")?.seconds == 45)
        #expect(SyncInterval(parsing: "2D")?.seconds == 172_800)
        for bad in ["", "0", "0s", "soon", "5x", "10m3", "-5m", "m", "400d"] {
            #expect(SyncInterval(parsing: bad) == nil, "\(bad)")
        }
    }

    @Test func configReadsTheKeysAndPlacesAWrongValue() {
        let config = Config.parse("sync_every = \"30m\"\nsync_on_open = false\n", path: "/c/config.toml", home: nil)
        #expect(config.problems.isEmpty, "\(config.problems)")
        #expect(config.syncEvery == SyncInterval(seconds: 1_800))
        #expect(config.syncOnOpen == false)
        let defaults = Config.parse("", path: "/c/config.toml", home: nil)
        #expect(defaults.syncEvery == nil && defaults.syncOnOpen)

        let wrong = Config.parse("color = true\n  sync_every =  \"soon\"\nsync_on_open = \"no\"\n", path: "/c/config.toml", home: nil)
        #expect(wrong.syncEvery == nil)
        #expect(wrong.problems.contains("/c/config.toml:2:17: sync_every must be an interval such as \"30m\", \"2h\" or \"90s\" (s, m, h, d; at most a year)"),
                "\(wrong.problems)")
        #expect(wrong.problems.contains("/c/config.toml:3:16: sync_on_open must be true or false"), "\(wrong.problems)")
    }
}
