import Foundation
import TextScreen

/// The stories screen drawn as text: the list, its loading, empty and error states.
///
/// ```swift
/// let screen = StoriesScreen(state: vm.outputs.state.value)
/// ```
/// A row is its title (at most two lines), "118 points · 42 comments · 2 hours ago", and the
/// byline with the upvote arrow: `△`, or `▲` once upvoted. (The badge is not drawn: Designer
/// News titles already start with "Show DN:" or "Ask DN:".)
public struct StoriesScreen: ScreenRenderable, Sendable {
    public var state: StoriesViewModel.State
    public var strings: Localizer

    public init(state: StoriesViewModel.State, strings: Localizer = AppEnvironment.current.strings) {
        self.state = state
        self.strings = strings
    }

    public var body: TextNode {
        .stack([
            .titleBar(strings("stories.title"), trailing: state.isRefreshing ? "◌" : "⟳"),
            content,
        ])
    }

    public func screen(in context: SnapshotContext) -> TextNode { body }

    private var content: TextNode {
        if state.isLoading && state.rows.isEmpty {
            return .stack([.spacer(2), .activity(strings("stories.loading"))])
        }
        if let errorMessage = state.errorMessage {
            return .stack(
                [
                    .spacer(),
                    .text(strings("stories.error.title"), style: .headline, alignment: .center),
                    .text(errorMessage, alignment: .center),
                    .button(strings("stories.retry")),
                ], spacing: 1)
        }
        if state.showEmptyState {
            return .stack(
                [
                    .spacer(),
                    .text(strings("stories.empty.title"), style: .headline, alignment: .center),
                    .text(strings("stories.empty.message"), alignment: .center),
                ], spacing: 1)
        }
        var nodes: [TextNode] = []
        for row in state.rows {
            nodes.append(Self.node(for: row))
            nodes.append(.divider)
        }
        if state.isLoadingNextPage {
            nodes.append(.activity(strings("stories.loading_more")))
        }
        return .stack(nodes)
    }

    static func node(for row: StoryRow) -> TextNode {
        .stack([
            .text(row.title, lineLimit: 2),
            .text(row.meta),
            .row(leading: .text(row.byline, lineLimit: 1), trailing: .text(row.isUpvoted ? "▲" : "△")),
        ])
    }
}
