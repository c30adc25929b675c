import TextScreen

/// The forecast screen drawn as text, for snapshots in every language and device.
public struct ForecastScreen: ScreenRenderable, Sendable {
    public var state: ForecastViewModel.State
    public var strings: Localizer

    public init(state: ForecastViewModel.State, strings: Localizer) {
        self.state = state
        self.strings = strings
    }

    public func screen(in context: SnapshotContext) -> TextNode {
        let strings = self.strings.with(language: context.language)
        var nodes: [TextNode] = [
            .titleBar(strings("forecast.title")),
            .field(label: strings("forecast.city"), text: state.city, placeholder: strings("forecast.city.placeholder")),
        ]
        if state.isLoading {
            nodes.append(.activity(strings("forecast.loading")))
        }
        if let headline = state.headline {
            nodes.append(.text(headline, style: .title, alignment: .center))
            nodes.append(.list(state.details.map { .text($0) }))
        }
        if let advice = state.advice {
            nodes.append(.text(advice, style: .headline))
        }
        if let errorMessage = state.errorMessage {
            nodes.append(.text(errorMessage, style: .error))
        }
        return .stack(nodes, spacing: 1)
    }
}
