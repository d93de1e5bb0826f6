import BibModel

/// An edit prompt, drawn over the library view's status line: the rating, a field's name and
/// value, and the y/n questions (remove the field, undo).
enum EditPromptLine {
    static func draw(_ prompt: EditPrompt, state: AppState, into screen: inout ScreenBuffer) {
        let rect = Layout(width: state.width, height: state.height, focus: state.focus).status
        let style = Style(.status)
        screen.fill(x: rect.x, y: rect.y, width: rect.width, height: 1, style: style)
        let target = state.editTargetPosition.flatMap { state.library?.entries[$0].address } ?? ""
        let line: String
        switch prompt {
        case .rating:
            line = "Rate \(target): 0 (none) to 5 · Esc leaves it"
        case .fieldName(let text):
            line = "Edit which field of \(target) (Tab completes): \(text)▏"
        case .fieldValue(let field, let text):
            line = "\(field) = \(text)▏"
        case .removeField(let field):
            line = "Remove the field \(field) of \(target)? (y/n)"
        case .undo(_, let description):
            line = "Undo \(description)? (y/n)"
        case .conflict(let stored):
            let field = stored.conflict.field ?? ""
            func shown(_ value: String?) -> String { value.map { "'\($0)'" } ?? "(none)" }
            func key(_ action: Action) -> String { state.keymap.keys(for: action).first?.description ?? "" }
            line = "\(field): \(key(.keepMine)) keeps mine \(shown(stored.conflict.mine)) · \(key(.keepRemote)) keeps the remote's "
                + "\(shown(stored.conflict.theirs)) · \(key(.editValue)) edits · \(key(.cancel)) leaves it"
        case .conflictValue(let stored, let text):
            line = "\(stored.conflict.field ?? "") (resolving the conflict) = \(text)▏"
        }
        // The end of what is typed stays in sight.
        let room = max(0, rect.width - 2)
        let shown = DisplayWidth.of(line) > room ? "…" + String(line.suffix(max(0, room - 1))) : line
        screen.write(shown, x: rect.x + 1, y: rect.y, style: Style(.message, bold: true))
    }
}
