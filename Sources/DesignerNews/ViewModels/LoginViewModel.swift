import Foundation
import TextScreen

/// What the login screen tells its view model.
@MainActor
public protocol LoginViewModelInputs {
    /// The email field's text changed.
    func emailChanged(_ email: String?)
    /// The reader left the email field: an invalid address is pointed out now, not while typing.
    func emailFieldDidEndEditing()
    /// The password field's text changed.
    func passwordChanged(_ password: String?)
    /// The login button was tapped (ignored while it is disabled).
    func loginButtonTapped()
}

/// What the login screen shows.
@MainActor
public protocol LoginViewModelOutputs {
    /// True when the email looks valid, a password is typed and no login is in flight.
    var isLoginButtonEnabled: Property<Bool> { get }
    /// True while the token request is in flight.
    var isLoading: Property<Bool> { get }
    /// "Enter a valid email address.", once the reader left the field with an invalid one.
    var emailError: Property<String?> { get }
    /// Why the last login failed, in the reader's language; cleared by typing or trying again.
    var errorMessage: Property<String?> { get }
    /// Sends the token once it is stored in the environment.
    var loginSucceeded: Signal<AccessToken> { get }
    /// Everything above in one value, for the screen.
    var state: Property<LoginViewModel.State> { get }
}

/// The login form, Kickstarter style: inputs in, outputs observed.
///
/// ```swift
/// let vm = LoginViewModel()
/// vm.outputs.isLoginButtonEnabled.observe { enabled in button.isEnabled = enabled }
/// vm.inputs.emailChanged("qa@example.com")
/// vm.inputs.passwordChanged("secret")
/// vm.inputs.loginButtonTapped()    // POST /oauth/token; on success the token is stored
/// ```
/// Reads the API, language and token store from ``AppEnvironment/current`` when the login starts.
@MainActor
public final class LoginViewModel: LoginViewModelInputs, LoginViewModelOutputs {
    /// The login form as the screen draws it.
    public struct State: Sendable, Equatable {
        public var email = ""
        public var password = ""
        public var emailError: String?
        public var errorMessage: String?
        public var isLoading = false
        public var isLoginButtonEnabled = false

        public init(
            email: String = "", password: String = "", emailError: String? = nil, errorMessage: String? = nil,
            isLoading: Bool = false, isLoginButtonEnabled: Bool = false
        ) {
            self.email = email
            self.password = password
            self.emailError = emailError
            self.errorMessage = errorMessage
            self.isLoading = isLoading
            self.isLoginButtonEnabled = isLoginButtonEnabled
        }
    }

    public var inputs: any LoginViewModelInputs { self }
    public var outputs: any LoginViewModelOutputs { self }

    private let stateStore = MutableProperty(State())
    private let buttonEnabled = MutableProperty(false)
    private let loading = MutableProperty(false)
    private let emailProblem = MutableProperty<String?>(nil)
    private let failure = MutableProperty<String?>(nil)
    private let succeeded = Signal<AccessToken>.pipe()

    public let isLoginButtonEnabled: Property<Bool>
    public let isLoading: Property<Bool>
    public let emailError: Property<String?>
    public let errorMessage: Property<String?>
    public var loginSucceeded: Signal<AccessToken> { succeeded.signal }
    public let state: Property<State>

    public init() {
        isLoginButtonEnabled = Property(buttonEnabled)
        isLoading = Property(loading)
        emailError = Property(emailProblem)
        errorMessage = Property(failure)
        state = Property(stateStore)
    }

    // MARK: Inputs

    public func emailChanged(_ email: String?) {
        update { state in
            state.email = email ?? ""
            if state.emailError != nil, EmailValidation.isValid(Self.trimmed(state.email)) { state.emailError = nil }
            state.errorMessage = nil
        }
    }

    public func emailFieldDidEndEditing() {
        let strings = AppEnvironment.current.strings
        update { state in
            let email = Self.trimmed(state.email)
            state.emailError = !email.isEmpty && !EmailValidation.isValid(email) ? strings("login.error.invalid_email") : nil
        }
    }

    public func passwordChanged(_ password: String?) {
        update { state in
            state.password = password ?? ""
            state.errorMessage = nil
        }
    }

    public func loginButtonTapped() {
        let current = stateStore.value
        guard current.isLoginButtonEnabled else { return }
        let environment = AppEnvironment.current
        let email = Self.trimmed(current.email)
        let password = current.password
        update { state in
            state.isLoading = true
            state.errorMessage = nil
        }
        Task {
            do throws(APIError) {
                let token = try await environment.api.login(email: email, password: password)
                finishLogin(.success(token), strings: environment.strings)
            } catch {
                finishLogin(.failure(error), strings: environment.strings)
            }
        }
    }

    // MARK: State

    private func finishLogin(_ result: Result<AccessToken, APIError>, strings: Localizer) {
        switch result {
        case .success(let token):
            AppEnvironment.login(token)
            update { $0.isLoading = false }
            succeeded.send(token)
        case .failure(let error):
            let message = ErrorMessages.loginMessage(for: error, strings: strings)
            update { state in
                state.isLoading = false
                state.errorMessage = message
            }
        }
    }

    private func update(_ change: (inout State) -> Void) {
        var next = stateStore.value
        change(&next)
        next.isLoginButtonEnabled = !next.isLoading && EmailValidation.isValid(Self.trimmed(next.email)) && !next.password.isEmpty
        // Individual outputs first, so an observer of `state` sees them already current.
        buttonEnabled.value = next.isLoginButtonEnabled
        loading.value = next.isLoading
        emailProblem.value = next.emailError
        failure.value = next.errorMessage
        stateStore.value = next
    }

    private static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
