import Locking

/// The tests' shorthand for the package's `Locked`: a box whose `value` callbacks set and tests read.
typealias LockedBox<Value> = Locked<Value>

extension Locked {
    var value: Value {
        get { snapshot }
        set { set(newValue) }
    }
}
