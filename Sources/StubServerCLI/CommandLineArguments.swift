import Foundation

/// A usage mistake: exit 64 with a one-line reason and a pointer to `--help`.
struct UsageError: Error {
    var message: String
    /// The subcommand whose help to point at (nil: top level).
    var command: String?
}

/// A runtime failure: exit 1 with these lines (each already a complete sentence).
struct RuntimeFailure: Error {
    var lines: [String]
    init(_ lines: String...) { self.lines = lines }
    init(lines: [String]) { self.lines = lines }
}

/// The options of one subcommand, parsed argument-parser style: `-p 8080`, `--port 8080`,
/// `--port=8080`, flags such as `-q`, and `-h`/`--help` anywhere.
struct CommandLineArguments {
    struct Option {
        var names: [String]
        var key: String
        var takesValue: Bool
    }

    private(set) var values: [String: String] = [:]
    private(set) var flags: Set<String> = []
    private(set) var wantsHelp = false

    init(_ arguments: [String], options: [Option], command: String) throws {
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "-h" || argument == "--help" {
                wantsHelp = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            guard argument.hasPrefix("-"), argument.count > 1 else {
                throw UsageError(message: "unexpected argument '\(argument)'", command: command)
            }
            guard let option = options.first(where: { $0.names.contains(name) }) else {
                throw UsageError(message: "unknown option '\(name)'", command: command)
            }
            if option.takesValue {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else {
                        throw UsageError(message: "missing value for '\(name)'", command: command)
                    }
                    value = arguments[index]
                    index += 1
                }
                if values[option.key] != nil {
                    throw UsageError(message: "'\(name)' given more than once", command: command)
                }
                values[option.key] = value
            } else {
                guard inlineValue == nil else { throw UsageError(message: "'\(name)' takes no value", command: command) }
                flags.insert(option.key)
            }
        }
    }

    /// The parsed arguments, or nil once `help` is printed for `-h`/`--help` (the command then
    /// exits 0): `guard let parsed = try CommandLineArguments.parse(…) else { return 0 }`.
    static func parse(_ arguments: [String], options: [Option], command: String, help: String) throws -> CommandLineArguments? {
        let parsed = try CommandLineArguments(arguments, options: options, command: command)
        guard !parsed.wantsHelp else {
            Console.out(help)
            return nil
        }
        return parsed
    }

    subscript(key: String) -> String? { values[key] }

    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// A port number 0...65535, or a usage error naming the option.
    /// A byte size such as `268435456`, `512K`, `256M` or `1G` (powers of 1024; `MiB`, `MB`
    /// and lower case are read the same), from 1 MiB up.
    func byteSize(_ key: String, option: String, command: String) throws -> Int? {
        guard let text = values[key] else { return nil }
        var digits = Substring(text.trimmingCharacters(in: .whitespaces))
        var unit = 1
        let suffixes: [(String, Int)] = [
            ("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("kb", 1 << 10), ("mb", 1 << 20),
            ("gb", 1 << 30), ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30), ("b", 1),
        ]
        for (suffix, size) in suffixes where digits.lowercased().hasSuffix(suffix) {
            digits = digits.dropLast(suffix.count)
            unit = size
            break
        }
        guard let count = Int(digits), count > 0 else {
            throw UsageError(
                message: "invalid size '\(text)' for '\(option)': expected bytes or a number with K, M or G, e.g. 256M", command: command)
        }
        let (bytes, overflow) = count.multipliedReportingOverflow(by: unit)
        guard !overflow, bytes >= 1 << 20 else {
            throw UsageError(message: "size '\(text)' for '\(option)' is out of range: expected at least 1M", command: command)
        }
        return bytes
    }

    func port(_ key: String, option: String, command: String) throws -> Int? {
        guard let text = values[key] else { return nil }
        guard let port = Int(text), (0...65535).contains(port) else {
            throw UsageError(message: "invalid port '\(text)' for '\(option)': expected a number from 0 to 65535", command: command)
        }
        return port
    }

    /// A whole number in `range`, or a usage error naming the option.
    func number(_ key: String, option: String, in range: ClosedRange<Int>, command: String) throws -> Int? {
        guard let text = values[key] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError(
                message: "invalid value '\(text)' for '\(option)': expected a number from \(range.lowerBound) to \(range.upperBound)",
                command: command)
        }
        return number
    }
}
