// The Objective-C runtime as Swift sees it on Apple platforms: <objc/runtime.h> and <objc/objc.h>
// as imported by the SDK's ObjectiveC module, plus the swift repo's ObjectiveC overlay
// (swiftlang/swift stdlib/public/Darwin/ObjectiveC/ObjectiveC.swift) and the stdlib's
// AutoreleasingUnsafeMutablePointer (stdlib/public/core/Pointer.swift, `#if _runtime(_ObjC)`).
// Bodies are placeholders: the check only type-checks against these declarations.
import Foundation

// objc.h: `typedef struct objc_selector *SEL;` imported as `Selector`; the overlay makes it
// ExpressibleByStringLiteral, Hashable and CustomStringConvertible.
public struct Selector: ExpressibleByStringLiteral, Hashable, CustomStringConvertible, @unchecked Sendable {
    public init(_ name: String) {}
    public init(stringLiteral name: String) {}
    public var description: String { "" }
}

// objc.h: `typedef struct objc_class *Class;` is `AnyClass`; BOOL is imported as Swift `Bool`.
// (ObjCBool, the overlay's wrapper of a raw BOOL, comes from Linux Foundation here.)

// runtime.h: `typedef struct objc_method *Method;` and `typedef void (*IMP)(void)` (OBJC_OLD_DISPATCH_PROTOTYPES=0).
public typealias Method = OpaquePointer
public typealias IMP = OpaquePointer

// Pointer.swift (`#if _runtime(_ObjC)`): the type of an `NSError **` out-parameter.
@frozen
public struct AutoreleasingUnsafeMutablePointer<Pointee>: Equatable, Hashable {
    public let _rawValue: Builtin_RawPointer
    public var pointee: Pointee {
        get { fatalError() }
        nonmutating set {}
    }
    public init(_ from: UnsafeMutablePointer<Pointee>) { _rawValue = Builtin_RawPointer() }
}
public struct Builtin_RawPointer: Hashable { public init() {} }

// runtime.h
public func class_addMethod(_ cls: AnyClass?, _ name: Selector, _ imp: IMP, _ types: UnsafePointer<CChar>?) -> Bool { false }
public func class_replaceMethod(_ cls: AnyClass?, _ name: Selector, _ imp: IMP, _ types: UnsafePointer<CChar>?) -> IMP? { nil }
public func class_getInstanceMethod(_ cls: AnyClass?, _ name: Selector) -> Method? { nil }
public func class_getClassMethod(_ cls: AnyClass?, _ name: Selector) -> Method? { nil }
public func class_respondsToSelector(_ cls: AnyClass?, _ sel: Selector) -> Bool { false }
public func class_copyMethodList(_ cls: AnyClass?, _ outCount: UnsafeMutablePointer<UInt32>?) -> UnsafeMutablePointer<Method>? { nil }
public func class_getName(_ cls: AnyClass?) -> UnsafePointer<CChar> { fatalError() }
public func class_getSuperclass(_ cls: AnyClass?) -> AnyClass? { nil }
public func method_getName(_ m: Method) -> Selector { "" }
public func method_getTypeEncoding(_ m: Method) -> UnsafePointer<CChar>? { nil }
public func method_getImplementation(_ m: Method) -> IMP { fatalError() }
public func imp_implementationWithBlock(_ block: Any) -> IMP { fatalError() }
public func imp_removeBlock(_ anImp: IMP) -> Bool { false }
public func sel_registerName(_ str: UnsafePointer<CChar>) -> Selector { "" }
public func sel_getName(_ sel: Selector) -> UnsafePointer<CChar> { fatalError() }
public func object_getClass(_ obj: Any?) -> AnyClass? { nil }
public func objc_getClass(_ name: UnsafePointer<CChar>) -> Any! { nil }
