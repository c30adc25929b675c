/// Recognises a CI run from the variables CI providers set, when `CI` itself is not visible
/// (Xcode Cloud and `xcodebuild` do not pass it to the test runner unless prefixed).
package enum CIDetection {
    /// Provider variables, each looked up plain and with the `TEST_RUNNER_` / `SIMCTL_CHILD_` prefixes.
    package static let providerVariables = [
        "CI_XCODE_CLOUD", "CI_XCODEBUILD_ACTION", // Xcode Cloud
        "GITHUB_ACTIONS", "GITLAB_CI", "BUILDKITE", "CIRCLECI", "TRAVIS", "JENKINS_URL", "TEAMCITY_VERSION",
        "BITRISE_IO", "TF_BUILD", "APPVEYOR", "DRONE", "CODEBUILD_BUILD_ID", "BITBUCKET_BUILD_NUMBER",
        "SEMAPHORE", "CONTINUOUS_INTEGRATION",
    ]

    /// The first provider variable found (with its prefix, as found), or `nil`.
    package static func provider(in environment: [String: String]) -> String? {
        for name in providerVariables {
            if let found = RehearsalSettings.lookUp(name, in: environment) {
                return found.source == "environment" ? name : found.source
            }
        }
        return nil
    }
}
