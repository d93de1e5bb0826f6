
/// Where each pane goes for a terminal size: three columns when wide, groups beside the list
/// with details below it at 80 columns, one pane at a time when narrower.
public struct Layout: Sendable, Equatable {
    /// Each pane's rectangle, including its one-row title; nil when it is not shown.
    public var groups: Rect?
    public var list: Rect?
    public var details: Rect?
    public var searchBar: Rect
    public var status: Rect

    /// Widths at which the layout changes.
    public static let wideColumns = 120
    public static let mediumColumns = 80

    public init(width: Int, height: Int, focus: Pane) {
        status = Rect(x: 0, y: height - 1, width: width, height: 1)
        searchBar = Rect(x: 0, y: height - 2, width: width, height: 1)
        let bodyHeight = max(0, height - 2)
        let showDetails = bodyHeight >= 10
        if width >= Layout.wideColumns {
            let groupsWidth = min(30, width / 5)
            let detailsWidth = (width - groupsWidth) * 2 / 5 - 2
            groups = Rect(x: 0, y: 0, width: groupsWidth, height: bodyHeight)
            list = Rect(x: groupsWidth + 1, y: 0, width: width - groupsWidth - detailsWidth - 2, height: bodyHeight)
            details = Rect(x: width - detailsWidth, y: 0, width: detailsWidth, height: bodyHeight)
        } else if width >= Layout.mediumColumns {
            let groupsWidth = min(24, width / 4)
            groups = Rect(x: 0, y: 0, width: groupsWidth, height: bodyHeight)
            let right = Rect(x: groupsWidth + 1, y: 0, width: width - groupsWidth - 1, height: bodyHeight)
            (list, details) = Layout.stack(right, showDetails: showDetails)
        } else {
            let whole = Rect(x: 0, y: 0, width: width, height: bodyHeight)
            if focus == .groups {
                groups = whole
            } else {
                (list, details) = Layout.stack(whole, showDetails: showDetails)
            }
        }
    }

    /// The list above the details, which get about two fifths of the height.
    private static func stack(_ area: Rect, showDetails: Bool) -> (Rect, Rect?) {
        guard showDetails else { return (area, nil) }
        let detailsHeight = max(5, area.height * 2 / 5)
        let list = Rect(x: area.x, y: area.y, width: area.width, height: area.height - detailsHeight)
        let details = Rect(x: area.x, y: area.y + list.height, width: area.width, height: detailsHeight)
        return (list, details)
    }

    /// The panes shown, in Tab order.
    public var visiblePanes: [Pane] {
        [(Pane.groups, groups), (.list, list), (.details, details)].compactMap { $0.1 == nil ? nil : $0.0 }
    }

    /// The rectangle of a pane, if shown.
    public func rect(of pane: Pane) -> Rect? {
        switch pane {
        case .groups: return groups
        case .list: return list
        case .details: return details
        }
    }

    /// The rows of a pane's content (below its title row).
    public func contentRows(of pane: Pane) -> Int {
        max(0, (rect(of: pane)?.height ?? 0) - (pane == .list ? 2 : 1))
    }
}
