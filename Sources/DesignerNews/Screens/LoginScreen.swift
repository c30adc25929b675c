import Foundation
import TextScreen

/// The login screen drawn as text: what a reader sees for a ``LoginViewModel/State``.
///
/// ```swift
/// let screen = LoginScreen(state: vm.outputs.state.value)   // strings of AppEnvironment.current
/// print(ScreenRenderer.render(screen.body, in: SnapshotContext(language: .en, device: .phone4inch)))
/// ```
public struct LoginScreen: ScreenRenderable, Sendable {
    public var state: LoginViewModel.State
    public var strings: Localizer

    public init(state: LoginViewModel.State, strings: Localizer = AppEnvironment.current.strings) {
        self.state = state
        self.strings = strings
    }

    public var body: TextNode {
        var nodes: [TextNode] = [
            .titleBar(strings("login.title")),
            .text(strings("login.headline"), alignment: .center),
            .field(label: strings("login.email"), text: state.email, placeholder: strings("login.email.placeholder")),
        ]
        if let emailError = state.emailError {
            nodes.append(.text(emailError, style: .error))
        }
        nodes.append(.field(label: strings("login.password"), text: state.password, isSecure: true))
        if let errorMessage = state.errorMessage {
            nodes.append(.text(errorMessage, style: .error))
        }
        nodes.append(
            state.isLoading
                ? .activity(strings("login.loading"))
                : .button(strings("login.button"), isEnabled: state.isLoginButtonEnabled))
        return .stack(nodes, spacing: 1)
    }

    public func screen(in context: SnapshotContext) -> TextNode { body }
}
