// Foundation API that exists in Apple's Foundation but not in Linux's swift-corelibs Foundation
// (or lives in a separate module there). The check imports this module into every file that imports Foundation
// (an `import AppleFoundation` added on the line of its `import Foundation`, `FoundationNetworking`,
// `FoundationXML` or `XCTest`), so such a file sees it as on a Mac, and no other file does.
//
// URLSession, URLRequest, HTTPURLResponse and friends: in Apple's Foundation itself; on Linux they are
// swift-corelibs FoundationNetworking, which mirrors Apple's API (developer.apple.com/documentation/
// foundation/urlsession). The check re-exports that module as the URL Loading System surface; the
// Darwin-only parts we use are declared below.
@_exported import Foundation
@_exported import FoundationNetworking
// XMLParser is in Apple's Foundation; on Linux it is swift-corelibs FoundationXML (same API).
@_exported import FoundationXML
@_exported import ObjectiveC

// NSObjCRuntime.h (Foundation)
public func NSSelectorFromString(_ aSelectorName: String) -> Selector { Selector(aSelectorName) }
public func NSStringFromSelector(_ aSelector: Selector) -> String { "" }
public func NSStringFromClass(_ aClass: AnyClass) -> String { "" }
public func NSClassFromString(_ aClassName: String) -> AnyClass? { nil }

#if SURFACE_IOS
// NSTask.h: `API_UNAVAILABLE(ios, watchos, tvos)` (Process is macOS-only; shadows Foundation's here).
@available(*, unavailable, message: "Process is unavailable in iOS, tvOS and watchOS (NSTask.h: API_UNAVAILABLE(ios, watchos, tvos))")
open class Process: NSObject {}
#endif
