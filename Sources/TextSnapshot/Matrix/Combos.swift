/// Every pair of `xs` and `ys` (the Cartesian product), `xs` outer and `ys` inner, in array order.
/// Kickstarter's `combos`.
///
/// ```swift
/// combos([Language.en, .ja], [Device.phone4inch, .pad])
/// // [(.en, .phone4inch), (.en, .pad), (.ja, .phone4inch), (.ja, .pad)]
/// ```
public func combos<A, B>(_ xs: [A], _ ys: [B]) -> [(A, B)] {
    xs.flatMap { x in ys.map { y in (x, y) } }
}

/// Every triple of `xs`, `ys` and `zs`, outermost first.
public func combos<A, B, C>(_ xs: [A], _ ys: [B], _ zs: [C]) -> [(A, B, C)] {
    xs.flatMap { x in ys.flatMap { y in zs.map { z in (x, y, z) } } }
}

/// `max(xs.count, ys.count)` pairs that use every value at least once, cycling the shorter array
/// (`index % count`). Kickstarter's `orthogonalCombos`: coverage without the Cartesian explosion.
/// Empty when either array is empty.
///
/// ```swift
/// orthogonalCombos([Language.en, .de, .ja], [Device.phone4inch, .pad])
/// // [(.en, .phone4inch), (.de, .pad), (.ja, .phone4inch)]
/// ```
public func orthogonalCombos<A, B>(_ xs: [A], _ ys: [B]) -> [(A, B)] {
    guard !xs.isEmpty, !ys.isEmpty else { return [] }
    return (0..<max(xs.count, ys.count)).map { index in (xs[index % xs.count], ys[index % ys.count]) }
}

/// `max` of the three counts triples that use every value at least once.
public func orthogonalCombos<A, B, C>(_ xs: [A], _ ys: [B], _ zs: [C]) -> [(A, B, C)] {
    guard !xs.isEmpty, !ys.isEmpty, !zs.isEmpty else { return [] }
    return (0..<max(xs.count, ys.count, zs.count)).map { index in
        (xs[index % xs.count], ys[index % ys.count], zs[index % zs.count])
    }
}

/// How a screen matrix picks its combinations.
public enum Sampling: String, Sendable, CaseIterable {
    /// Every language on every device (and orientation): ``combos(_:_:_:)``.
    case all
    /// Each language and each device at least once: ``orthogonalCombos(_:_:_:)``.
    case orthogonal
}
