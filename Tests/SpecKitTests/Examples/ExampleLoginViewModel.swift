import Foundation

/// A tiny Kickstarter-style app core for the example specs (and the README).

struct ExampleEnvironment: Sendable {
    var minimumPasswordLength = 6
    var greeting = "Welcome"
}

enum ExampleApp {
    static let environment = EnvironmentStack(ExampleEnvironment())
}

/// The smallest output type with an `observe(_:)` taking a `@Sendable` sink.
final class ExampleSignal<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var observers: [@Sendable (Value) -> Void] = []

    func observe(_ observer: @escaping @Sendable (Value) -> Void) {
        lock.lock()
        observers.append(observer)
        lock.unlock()
    }

    func send(_ value: Value) {
        lock.lock()
        let current = observers
        lock.unlock()
        current.forEach { $0(value) }
    }
}

@MainActor
final class ExampleLoginViewModel {
    var inputs: ExampleLoginViewModel { self }
    var outputs: ExampleLoginViewModel { self }

    let isLoginEnabled = ExampleSignal<Bool>()
    let greeting = ExampleSignal<String>()

    private var email = ""
    private var password = ""

    func viewDidLoad() { validate() }
    func emailChanged(_ email: String) { self.email = email; validate() }
    func passwordChanged(_ password: String) { self.password = password; validate() }

    /// Answers a moment later, like a network call would.
    func loginTapped() {
        let message = "\(ExampleApp.environment.current.greeting), \(email)"
        DispatchQueue.main.asyncAfter(deadline: .now() + 0.02) { [greeting] in greeting.send(message) }
    }

    private func validate() {
        let minimum = ExampleApp.environment.current.minimumPasswordLength
        isLoginEnabled.send(email.contains("@") && password.count >= minimum)
    }
}

struct ExampleStory: Codable, Equatable {
    var id: Int
    var title: String
    var commentCount: Int
    var url: URL?
}
