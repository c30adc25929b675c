import Foundation

/// Everything a screen may depend on, fixed per combination so snapshots never depend on the host:
/// language, locale, layout direction, device, orientation, size classes, a fixed clock
/// (2023-11-14T22:13:20Z), UTC, a gregorian calendar, sequential UUIDs and a seeded random source.
///
/// TextSnapshot's `assertScreenSnapshots(…)` makes a fresh one per combination; it is also
/// ``SnapshotContext/current`` while your closure runs. App code may build one too (this module never
/// imports XCTest).
///
/// ```swift
/// assertScreenSnapshots(languages: [.en, .ja], devices: [.phone4inch, .pad], localizer: appStrings) { context in
///     let viewModel = LoginViewModel(now: context.now, locale: context.locale)
///     return .text(context.strings("login.title"), style: .title)
/// }
/// ```
public struct SnapshotContext: Sendable {
    public let language: Language
    public let device: Device
    public let orientation: Orientation
    /// The locale of the language (``Language/locale``), never `Locale.current`.
    public let locale: Locale
    public let direction: LayoutDirection
    public let sizeClass: SizeClasses
    /// The text grid the screen is laid out on.
    public let grid: GridSize
    /// Dynamic Type size and appearance (the device's ``Device/traits``).
    public let traits: ScreenTraits
    /// The fixed "now": 2023-11-14T22:13:20Z unless you pass another.
    public let now: Date
    public let timeZone: TimeZone
    /// Gregorian, in ``timeZone``, weeks starting on Monday.
    public let calendar: Calendar
    /// Strings in ``language`` (a localizer with no tables when the matrix got none: every key shows as `⟦key⟧`).
    public let strings: Localizer
    /// `00000000-0000-0000-0000-000000000001`, `…0002`, … in call order.
    public let uuids: SequentialUUIDGenerator
    /// A SplitMix64 generator with a fixed seed; use it wherever the screen would call `random`.
    public let random: SeededRandomNumberGenerator

    /// The default fixed clock: 1_700_000_000 seconds after 1970 (2023-11-14T22:13:20Z).
    public static let fixedNow = Date(timeIntervalSince1970: 1_700_000_000)
    /// The default random seed.
    public static let defaultSeed: UInt64 = 0x5EED_0F_7E57

    public init(
        language: Language = .en, device: Device = .phone4_7inch, orientation: Orientation = .portrait,
        localizer: Localizer? = nil, now: Date = SnapshotContext.fixedNow,
        timeZone: TimeZone = TimeZone(identifier: "UTC")!, seed: UInt64 = SnapshotContext.defaultSeed
    ) {
        self.language = language
        self.device = device
        self.orientation = orientation
        self.locale = language.locale
        self.direction = language.direction
        self.sizeClass = device.sizeClass(for: orientation)
        self.grid = device.grid(for: orientation)
        self.traits = device.traits
        self.now = now
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = language.locale
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        self.calendar = calendar
        self.strings = (localizer ?? Localizer(catalog: StringsCatalog(strings: [:]), language: language)).with(language: language)
        self.uuids = SequentialUUIDGenerator()
        self.random = SeededRandomNumberGenerator(seed: seed)
    }

    /// The snapshot identifier of this combination: `lang_ja_device_phone4inch`, plus `_landscape`
    /// in landscape and the traits' suffix (`_type_accessibility3`, `_dark`) when they are not the
    /// standard ones (so existing names stay Kickstarter-compatible).
    public var identifier: String {
        "lang_\(language.rawValue)_device_\(device.rawValue)" + (orientation == .landscape ? "_landscape" : "")
            + traits.identifierSuffix
    }

    /// The appearance the screen is drawn in.
    public var appearance: Appearance { traits.appearance }

    /// The Dynamic Type size of the screen's text.
    public var dynamicType: DynamicTypeSize { traits.dynamicType }

    /// The grid as the text sees it: ``grid`` divided by the Dynamic Type scale (at `large`, the grid
    /// itself). Content is laid out ``TextLayout`` at this many columns inside the frame.
    public var textGrid: GridSize {
        let scale = traits.dynamicType.scale
        let contentColumns = max(grid.columns - 4, 0)
        let visibleRows = max(grid.rows - 2, 1)
        return GridSize(
            columns: max(Int((Double(contentColumns) / scale).rounded(.down)), min(contentColumns, 8)) + 4,
            rows: max(Int((Double(visibleRows) / scale).rounded(.down)), 1) + 2)
    }

    /// The next sequential UUID.
    public func uuid() -> UUID { uuids.next() }

    /// Numbers, dates, times, relative times and lists in this context's language and time zone,
    /// formatted by TextScreen itself so Linux and Darwin produce the same bytes.
    ///
    /// ```swift
    /// context.format.date(story.createdAt, style: .medium)    // "Nov 14, 2023" / "14.11.2023"
    /// context.format.relative(story.createdAt, to: context.now) // "3 hours ago"
    /// ```
    public var format: SnapshotFormatter {
        SnapshotFormatter(localeIdentifier: locale.identifier, timeZone: timeZone)
    }

    /// A date formatter bound to this context's locale, time zone and calendar.
    /// ICU formats these styles differently on Linux and Darwin; prefer ``format``.
    @available(
        *, deprecated,
        message: "ICU output differs between Linux and Apple platforms; use context.format.date(_:style:) or dateFormatter(pattern:)"
    )
    public func dateFormatter(dateStyle: DateFormatter.Style = .medium, timeStyle: DateFormatter.Style = .short) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.calendar = calendar
        formatter.dateStyle = dateStyle
        formatter.timeStyle = timeStyle
        return formatter
    }

    /// A date formatter with a fixed pattern (`yyyy-MM-dd HH:mm`), immune to ICU/CLDR changes such as
    /// the U+202F that ICU 72 put before "PM".
    public func dateFormatter(pattern: String) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.calendar = calendar
        formatter.dateFormat = pattern
        return formatter
    }

    /// A number formatter bound to this context's locale.
    /// ICU groups and spaces numbers differently on Linux and Darwin; prefer ``format``.
    @available(*, deprecated, message: "ICU output differs between Linux and Apple platforms; use context.format.number(_:fractionDigits:)")
    public func numberFormatter(style: NumberFormatter.Style = .decimal) -> NumberFormatter {
        let formatter = NumberFormatter()
        formatter.locale = locale
        formatter.numberStyle = style
        return formatter
    }

    /// The context of the screen matrix combination being rendered, if any (a task-local).
    public static var current: SnapshotContext? { $currentContext.get() }

    @TaskLocal static var currentContext: SnapshotContext?

    /// Runs `body` with `context` as ``SnapshotContext/current``.
    public static func withContext<R>(_ context: SnapshotContext, _ body: () throws -> R) rethrows -> R {
        try $currentContext.withValue(context, operation: body)
    }
}

/// Hands out `00000000-0000-0000-0000-000000000001`, `…0002`, … (Kickstarter's `MockUUID`).
public final class SequentialUUIDGenerator: @unchecked Sendable {
    private let lock = NSLock()
    private var counter: UInt64 = 0

    public init() {}

    public func next() -> UUID {
        lock.lock()
        counter += 1
        let value = counter
        lock.unlock()
        let hex = String(value, radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: max(12 - hex.count, 0)) + hex
        return UUID(uuidString: "00000000-0000-0000-0000-\(padded.suffix(12))")!
    }
}

/// SplitMix64: small, fast and the same on every platform, so "random" content is reproducible.
///
/// ```swift
/// let rng = SeededRandomNumberGenerator(seed: 42)
/// var generator = rng.generator
/// [1, 2, 3].shuffled(using: &generator)
/// ```
public final class SeededRandomNumberGenerator: RandomNumberGenerator, @unchecked Sendable {
    private let lock = NSLock()
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public func next() -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value-type handle for APIs that take `inout some RandomNumberGenerator`.
    public var generator: Handle { Handle(source: self) }

    /// Forwards to the shared generator.
    public struct Handle: RandomNumberGenerator {
        let source: SeededRandomNumberGenerator
        public mutating func next() -> UInt64 { source.next() }
    }
}
