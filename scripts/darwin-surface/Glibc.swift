// Not Glibc: the check's stand-in for it. Linux's Foundation re-exports Glibc; Apple's Foundation
// re-exports Darwin. Shadowing Glibc with a module that re-exports our Darwin makes `import Foundation`
// behave as on Apple platforms: no Linux declaration is visible, only the transcribed Darwin surface.
@_exported import Darwin
