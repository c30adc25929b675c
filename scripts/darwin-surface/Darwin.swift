// The Swift overlay named `Darwin`, transcribed from the swift repo's open-source Platform overlay
// (swiftlang/swift stdlib/public/Platform/Platform.swift, Darwin.swift.gyb, POSIXError.swift) for
// the declarations our code uses. The C declarations underneath are c/DarwinSDK.h.
@_exported import DarwinSDK

// Platform.swift: `public var errno: Int32 { get { return __error().pointee } set { ... } }`
public var errno: Int32 {
    get { __error().pointee }
    set { __error().pointee = newValue }
}

// Platform.swift: fork and vfork are marked unavailable on Apple platforms.
//   @available(*, unavailable, message: "Please use threads or posix_spawn*()")
//   public func fork() -> Int32 / public func vfork() -> Int32
@available(*, unavailable, message: "Please use threads or posix_spawn*()")
public func fork() -> Int32 { fatalError("unavailable function can't be called") }
@available(*, unavailable, message: "Please use threads or posix_spawn*()")
public func vfork() -> Int32 { fatalError("unavailable function can't be called") }

// Platform.swift: the variadic C `open`/`openat`/`fcntl`/`ioctl` are replaced by fixed-arity wrappers.
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { _swift_stdlib_open(path, oflag, 0) }
public func open(_ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { _swift_stdlib_open(path, oflag, mode) }
public func openat(_ fd: Int32, _ path: UnsafePointer<CChar>, _ oflag: Int32) -> Int32 { _swift_stdlib_openat(fd, path, oflag, 0) }
public func openat(_ fd: Int32, _ path: UnsafePointer<CChar>, _ oflag: Int32, _ mode: mode_t) -> Int32 { _swift_stdlib_openat(fd, path, oflag, mode) }
public func fcntl(_ fd: Int32, _ cmd: Int32) -> Int32 { _swift_stdlib_fcntl(fd, cmd, 0) }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ value: Int32) -> Int32 { _swift_stdlib_fcntl(fd, cmd, value) }
public func fcntl(_ fd: Int32, _ cmd: Int32, _ ptr: UnsafeMutableRawPointer) -> Int32 { _swift_stdlib_fcntlPtr(fd, cmd, ptr) }
public func ioctl(_ fd: CInt, _ request: UInt, _ value: CInt) -> CInt { _swift_stdlib_ioctl(fd, request, value) }
public func ioctl(_ fd: CInt, _ request: UInt, _ ptr: UnsafeMutableRawPointer) -> CInt { _swift_stdlib_ioctlPtr(fd, request, ptr) }
public func ioctl(_ fd: CInt, _ request: UInt) -> CInt { _swift_stdlib_ioctl(fd, request, 0) }

// Platform.swift: `public var SIG_DFL: sig_t? { return nil }`, SIG_IGN = 1, SIG_ERR = -1.
public var SIG_DFL: sig_t? { nil }
public var SIG_IGN: sig_t { unsafeBitCast(1, to: sig_t.self) }
public var SIG_ERR: sig_t { unsafeBitCast(-1, to: sig_t.self) }

// Darwin's time.h: `#define CLOCK_MONOTONIC _CLOCK_MONOTONIC`. Apple's toolchain imports the
// macro; open-source swiftc on Linux does not import a macro that aliases an enum constant, so the
// overlay spells the ones we use (shared/reference/apple/probes/macro).
public var CLOCK_REALTIME: clockid_t { _CLOCK_REALTIME }
public var CLOCK_MONOTONIC: clockid_t { _CLOCK_MONOTONIC }
public var CLOCK_MONOTONIC_RAW: clockid_t { _CLOCK_MONOTONIC_RAW }
public var CLOCK_UPTIME_RAW: clockid_t { _CLOCK_UPTIME_RAW }

// Platform.swift (stdio.h): the standard streams are the SDK's __stdinp/__stdoutp/__stderrp.
public var stdin: UnsafeMutablePointer<FILE> { get { __stdinp } set { __stdinp = newValue } }
public var stdout: UnsafeMutablePointer<FILE> { get { __stdoutp } set { __stdoutp = newValue } }
public var stderr: UnsafeMutablePointer<FILE> { get { __stderrp } set { __stderrp = newValue } }

// Platform.swift (fcntl.h): the S_IF* file-type constants are `mode_t` (UInt16 on Darwin).
public var S_IFMT: mode_t { mode_t(0o170000) }
public var S_IFIFO: mode_t { mode_t(0o010000) }
public var S_IFCHR: mode_t { mode_t(0o020000) }
public var S_IFDIR: mode_t { mode_t(0o040000) }
public var S_IFBLK: mode_t { mode_t(0o060000) }
public var S_IFREG: mode_t { mode_t(0o100000) }
public var S_IFLNK: mode_t { mode_t(0o120000) }
public var S_IFSOCK: mode_t { mode_t(0o140000) }
public var S_IRWXU: mode_t { mode_t(0o000700) }
public var S_IRUSR: mode_t { mode_t(0o000400) }
public var S_IWUSR: mode_t { mode_t(0o000200) }
public var S_IXUSR: mode_t { mode_t(0o000100) }

// Platform.swift (Misc.): `environ` comes from _swift_stdlib_getEnviron() on Apple platforms.
public var environ: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { _NSGetEnviron().pointee! }
