import Foundation

/// How long a spec waits for the app to hear back from the stub server. Generous, for a loaded
/// CI machine: a passing scenario returns as soon as the answer is there (a few milliseconds).
let serverTimeout: TimeInterval = 10
