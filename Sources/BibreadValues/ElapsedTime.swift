/// How long ago something happened, as people say it in a status line: `just now`, `5 min
/// ago`, `2 h ago`, `3 days ago`.
public enum ElapsedTime {
    /// `seconds` ago in words; a time in the future (another machine's clock ahead) is `just now`.
    public static func ago(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 60 else { return "just now" }
        let minutes = Int(seconds / 60)
        if minutes < 60 { return "\(minutes) min ago" }
        let hours = minutes / 60
        if hours < 48 { return "\(hours) h ago" }
        let days = hours / 24
        return days == 1 ? "1 day ago" : "\(days) days ago"
    }
}
