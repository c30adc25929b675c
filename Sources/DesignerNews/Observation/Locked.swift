import Locking

/// The observation types' one primitive, a value guarded by a lock: the package's `Locked`
/// (target Locking), named here once so the app's files use it without each importing Locking.
typealias Locked<Value> = Locking.Locked<Value>
