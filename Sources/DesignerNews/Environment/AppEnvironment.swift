import Foundation
import SpecKitAppSupport
import TextScreen

/// The app's current ``Environment`` on a stack, Kickstarter style: push one for a screen or a
/// spec, pop it when done, or run a closure inside one with ``withEnvironment(_:_:)``.
///
/// ```swift
/// AppEnvironment.pushEnvironment(api: MyAPI(), language: .ja)
/// defer { AppEnvironment.popEnvironment() }
/// AppEnvironment.current.language          // .ja
///
/// AppEnvironment.withEnvironment(language: .ar) {
///     StoriesViewModel().inputs.viewDidLoad()   // sees Arabic
/// }                                             // the previous environment is back
/// ```
/// Built on `EnvironmentStack` (SpecKitAppSupport, no XCTest): thread-safe, and the root environment is never popped.
public enum AppEnvironment {
    /// The key the access token is stored under.
    public static let accessTokenKey = "com.designernews.access_token"

    private static let stack = EnvironmentStack(Environment())

    /// The environment on top of the stack.
    public static var current: Environment { stack.current }

    /// How many environments are stacked (1 when only the root is left).
    public static var depth: Int { stack.depth }

    /// Makes `environment` current until popped.
    public static func pushEnvironment(_ environment: Environment) {
        stack.push(environment)
    }

    /// Pushes a copy of the current environment with the given values changed.
    public static func pushEnvironment(
        api: (any DesignerNewsAPI)? = nil, language: Language? = nil, locale: Locale? = nil,
        currentDate: (@Sendable () -> Date)? = nil, timeZone: TimeZone? = nil, calendar: Calendar? = nil,
        keyValueStore: (any KeyValueStore)? = nil
    ) {
        pushEnvironment(
            current.changing(
                api: api, language: language, locale: locale, currentDate: currentDate, timeZone: timeZone,
                calendar: calendar, keyValueStore: keyValueStore))
    }

    /// Removes the current environment and returns it; the root stays (returns nil then).
    @discardableResult
    public static func popEnvironment() -> Environment? {
        stack.pop()
    }

    /// Swaps the environment on top of the stack.
    public static func replaceCurrentEnvironment(_ environment: Environment) {
        stack.replaceCurrent(with: environment)
    }

    /// Swaps the environment on top of the stack for a copy with the given values changed.
    public static func replaceCurrentEnvironment(
        api: (any DesignerNewsAPI)? = nil, language: Language? = nil, locale: Locale? = nil,
        currentDate: (@Sendable () -> Date)? = nil, timeZone: TimeZone? = nil, calendar: Calendar? = nil,
        keyValueStore: (any KeyValueStore)? = nil
    ) {
        replaceCurrentEnvironment(
            current.changing(
                api: api, language: language, locale: locale, currentDate: currentDate, timeZone: timeZone,
                calendar: calendar, keyValueStore: keyValueStore))
    }

    /// Runs `body` with `environment` current, then restores the stack, even if `body` throws.
    public static func withEnvironment<Result>(_ environment: Environment, _ body: () throws -> Result) rethrows -> Result {
        try stack.withEnvironment(environment, body: body)
    }

    /// Runs `body` with a copy of the current environment with the given values changed.
    public static func withEnvironment<Result>(
        api: (any DesignerNewsAPI)? = nil, language: Language? = nil, locale: Locale? = nil,
        currentDate: (@Sendable () -> Date)? = nil, timeZone: TimeZone? = nil, calendar: Calendar? = nil,
        keyValueStore: (any KeyValueStore)? = nil, _ body: () throws -> Result
    ) rethrows -> Result {
        let environment = current.changing(
            api: api, language: language, locale: locale, currentDate: currentDate, timeZone: timeZone,
            calendar: calendar, keyValueStore: keyValueStore)
        return try stack.withEnvironment(environment, body: body)
    }

    /// Signs the reader in: stores the token and makes the current API send it.
    public static func login(_ token: AccessToken) {
        let environment = current
        environment.keyValueStore.set(token.accessToken, forKey: accessTokenKey)
        replaceCurrentEnvironment(api: environment.api.authorized(with: token.accessToken))
    }

    /// Signs the reader out: forgets the token.
    public static func logout() {
        let environment = current
        environment.keyValueStore.set(nil, forKey: accessTokenKey)
        replaceCurrentEnvironment(api: environment.api.authorized(with: nil))
    }
}

extension Environment {
    /// A copy with the non-nil values replaced. A new language brings its locale unless one is given.
    func changing(
        api: (any DesignerNewsAPI)?, language: Language?, locale: Locale?, currentDate: (@Sendable () -> Date)?,
        timeZone: TimeZone?, calendar: Calendar?, keyValueStore: (any KeyValueStore)?
    ) -> Environment {
        var copy = self
        if let api { copy.api = api }
        if let language {
            copy.language = language
            copy.locale = language.locale
        }
        if let locale { copy.locale = locale }
        if let currentDate { copy.currentDate = currentDate }
        if let timeZone { copy.timeZone = timeZone }
        if let calendar { copy.calendar = calendar }
        if let keyValueStore { copy.keyValueStore = keyValueStore }
        return copy
    }
}
