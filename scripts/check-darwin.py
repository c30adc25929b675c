#!/usr/bin/env python3
"""Type-check every Darwin-only line in Sources/ on Linux, for macOS and for iOS (`make check-darwin`).

Nothing on Linux compiles a `#if canImport(Darwin)` branch, so a wrong Darwin line used to go
unnoticed until a user's Mac build. This script:

1. builds the transcribed Apple surface in scripts/darwin-surface/ (a C module with the SDK
   declarations we use, a Swift overlay named `Darwin` with Apple's availability attributes, the
   Objective-C runtime, the Darwin XCTest surface, Foundation's Darwin-only API), once per platform;
2. copies every Swift target under Sources/ with each `#if` condition evaluated for that platform
   (line numbers unchanged; errors are reported against the original files);
3. type-checks the targets in dependency order (`swiftc -emit-module -swift-version 6`), so every
   line that is active on the platform is checked together with the code it calls;
4. fails on an error, on an `#if` condition it cannot evaluate, and on a file with Darwin-only lines
   that no check covered; prints how many Darwin-only lines and files it checked.

Targets are discovered (Sources/*), and dependencies come from the targets' `import` lines, so moving
files or adding a target needs no change here. See docs/apple-platforms.md, "Verified where".
"""
import os
import re
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SURFACE = os.path.join(ROOT, "scripts", "darwin-surface")
SOURCES = os.path.join(ROOT, "Sources")
WORK = os.path.join(ROOT, ".build", "darwin-check")
SWIFTC = os.environ.get("SWIFTC", "swiftc")

# What each `#if` predicate is on each platform. `os(...)`/`canImport(...)` not listed here fail the
# check: a new condition must be given its Apple answer before it can hide code.
COMMON_APPLE = {
    "canImport(Darwin)": True, "canImport(ObjectiveC)": True, "canImport(Foundation)": True,
    "canImport(XCTest)": True, "canImport(Testing)": True, "canImport(Dispatch)": True,
    "canImport(Security)": True, "canImport(Network)": True,
    "canImport(Glibc)": False, "canImport(Musl)": False, "canImport(Android)": False,
    "canImport(WinSDK)": False, "canImport(FoundationNetworking)": False,
    "canImport(FoundationXML)": False, "canImport(CSystemShims)": True,
    "os(Linux)": False, "os(Windows)": False, "os(Android)": False, "os(WASI)": False,
    "os(FreeBSD)": False, "os(OpenBSD)": False,
}
PLATFORMS = {
    "macOS": dict(COMMON_APPLE, **{
        "os(macOS)": True, "os(iOS)": False, "os(tvOS)": False, "os(watchOS)": False, "os(visionOS)": False,
        "canImport(UIKit)": False, "canImport(AppKit)": True,
    }),
    "iOS": dict(COMMON_APPLE, **{
        "os(macOS)": False, "os(iOS)": True, "os(tvOS)": False, "os(watchOS)": False, "os(visionOS)": False,
        "canImport(UIKit)": True, "canImport(AppKit)": False,
    }),
}
LINUX = {k: (not v if k in ("canImport(Glibc)", "os(Linux)", "canImport(FoundationNetworking)",
                             "canImport(FoundationXML)") else
             (False if k.startswith("os(") or k in (
                 "canImport(Darwin)", "canImport(ObjectiveC)", "canImport(Security)", "canImport(Network)",
                 "canImport(UIKit)", "canImport(AppKit)") else v))
         for k, v in PLATFORMS["macOS"].items()}
LINUX["canImport(Musl)"] = False

# Targets that are never built for a platform (executables are macOS/Linux tools).
EXECUTABLE_MARK = "main.swift"
# The check's own modules shadow these SDK modules (scripts/darwin-surface/README.md says why).
SURFACE_MODULES = ["Darwin", "Glibc", "ObjectiveC", "XCTest", "AppleFoundation", "Security"]

# Diagnostics Linux swiftc gives for code that is right on Apple platforms and cannot be decided here.
# Each entry: file name (wherever the file moves), a regular expression the message must match, why. Anything else is a failure. Keep this list short.
CANNOT_DECIDE_ON_LINUX = [
    ("ObjCRuntimeRegistration.swift",
     r"is not representable in Objective-C, so it cannot be used with '@convention\(block\)'",
     "Linux has no Objective-C classes (its NSObject is a Swift class) and no AutoreleasingUnsafeMutablePointer, "
     "so no block over FeatureSpec and NSError** is representable here; the rest of the line and the block's body "
     "are still checked"),
    ("TrustingAuthorityDelegate.swift",
     r"^cannot convert value of type '[^']+' to type 'CF[A-Za-z]+' in coercion$",
     "toll-free bridging (`Data as CFData`, `String as CFString`, `[SecCertificate] as CFArray`) needs the "
     "Objective-C bridging Linux lacks; the Security calls around it are checked"),
]
# Files not checked yet, each with the reason; printed on every run with their Darwin-only line count.
# An entry here is a known gap, not a pass: transcribe what the file needs and remove it.
NOT_CHECKED_YET: dict = {}
ERROR_LINE = re.compile(r"^(\S+?):(\d+):(\d+): error: (.*)$", re.M)

PREDICATE = re.compile(r"\b(os|canImport|arch|targetEnvironment)\(\s*([A-Za-z0-9_.]+)\s*\)")
DIRECTIVE = re.compile(r"^(\s*)#(if|elseif|else|endif)\b(.*)$")


class ConditionError(Exception):
    pass


def evaluate(condition, table, where):
    """Evaluates an `#if` condition; `None` when it mentions compiler-only things (DEBUG, swift(>=))
    that are the same on every platform and are left for the compiler."""
    def known(match):
        key = f"{match.group(1)}({match.group(2)})"
        if key not in table:
            raise ConditionError(f"{where}: `#if` uses {key}, which scripts/check-darwin.py has no Apple "
                                 f"answer for; add it to PLATFORMS")
        return "True" if table[key] else "False"
    text = re.sub(r"//.*$", "", condition).strip()
    if re.search(r"\barch\(", text):
        # The CPU is left to the compiler (the x86_64 Linux host checks the x86_64 branch); an `#if`
        # must not mix it with platform tests, or one platform's branch could go unchecked.
        if re.search(r"\b(os|canImport|targetEnvironment)\(", text):
            raise ConditionError(f"{where}: `#if {text}` mixes arch() with platform tests; nest them instead")
        return None
    replaced = PREDICATE.sub(known, text)
    if re.search(r"\b(compiler|swift|hasFeature|hasAttribute)\(", replaced) or re.search(r"\b[A-Z_][A-Z0-9_]*\b(?<!True)(?<!False)", replaced):
        if PREDICATE.search(text):
            raise ConditionError(f"{where}: `#if {text}` mixes platform tests with compiler flags; split it")
        return None
    python = replaced.replace("&&", " and ").replace("||", " or ").replace("!", " not ")
    try:
        return bool(eval(python, {"__builtins__": {}}, {}))
    except Exception as error:  # noqa: BLE001 - any parse problem is a check failure
        raise ConditionError(f"{where}: cannot evaluate `#if {text}` ({error})")


def active_lines(lines, table, path):
    """Per line: is it compiled under `table`? Directive lines count as active. Also returns, per
    `#if`/`#elseif` line, the literal the condition evaluates to (None: leave it to the compiler)."""
    active, literals, stack = [], {}, []  # stack: (parent_active, branch_taken, this_active, opaque)
    for number, line in enumerate(lines, 1):
        match = DIRECTIVE.match(line)
        parent = stack[-1][2] if stack else True
        if not match:
            active.append(parent)
            continue
        kind, rest = match.group(2), match.group(3)
        where = f"{os.path.relpath(path, ROOT)}:{number}"
        if kind == "if":
            value = evaluate(rest, table, where)
            literals[number] = value
            this = parent and (value is not False)
            stack.append([parent, value is True, this, value is None])
        elif kind == "elseif":
            if not stack:
                raise ConditionError(f"{where}: #elseif without #if")
            value = evaluate(rest, table, where)
            literals[number] = value
            frame = stack[-1]
            opaque = frame[3] or value is None
            frame[2] = frame[0] and (opaque or (not frame[1] and value))
            frame[1] = frame[1] or value is True
            frame[3] = opaque
        elif kind == "else":
            frame = stack[-1]
            frame[2] = frame[0] and (frame[3] or not frame[1])
        else:
            stack.pop()
        active.append(True)
    return active, literals


# Modules whose import makes Apple's Foundation visible in a file on a Mac: there the file also sees
# the Darwin-only Foundation API (`AppleFoundation`). Only those files get it, on the same line (line
# numbers stay): importing it everywhere would show Foundation's names (`Operation`, …) in files that
# never import Foundation, an ambiguity no Mac build has.
FOUNDATION_IMPORTS = re.compile(r"^(\s*(?:@_exported\s+)?import\s+(?:Foundation|FoundationNetworking|FoundationXML|XCTest))(\s*(?://.*)?)$")


def rewrite(lines, literals):
    out = []
    for number, line in enumerate(lines, 1):
        if number in literals and literals[number] is not None:
            match = DIRECTIVE.match(line)
            line = f"{match.group(1)}#{match.group(2)} {'true' if literals[number] else 'false'}"
        elif FOUNDATION_IMPORTS.match(line):
            line = FOUNDATION_IMPORTS.sub(r"\1; import AppleFoundation\2", line)
        out.append(line)
    return out


IMPORT = re.compile(r"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:class|struct|enum|protocol|func|var|let|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def discover_targets():
    targets = {}
    for name in sorted(os.listdir(SOURCES)):
        folder = os.path.join(SOURCES, name)
        if not os.path.isdir(folder):
            continue
        files = []
        for directory, _, names in os.walk(folder):
            files += [os.path.join(directory, n) for n in sorted(names) if n.endswith(".swift")]
        targets[name] = sorted(files)
    return targets


def shorten(path):
    return os.path.relpath(path, ROOT)


def run(command, log_prefix_map):
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    output = result.stdout + result.stderr
    for copy, original in log_prefix_map:
        output = output.replace(copy, original)
    return result.returncode, output, time.monotonic() - started


def build_surface(platform, out):
    os.makedirs(out, exist_ok=True)
    base = [SWIFTC, "-swift-version", "5", "-parse-as-library", "-suppress-warnings",
            "-I", out, "-I", os.path.join(SURFACE, "c")]
    if platform == "iOS":
        base += ["-D", "SURFACE_IOS"]
    for module in SURFACE_MODULES:
        source = os.path.join(SURFACE, f"{module}.swift")
        code, output, _ = run(base + ["-module-name", module, "-emit-module", "-emit-module-path",
                                      os.path.join(out, f"{module}.swiftmodule"), source], [])
        if code != 0:
            return f"the Apple surface module {module} ({shorten(source)}) does not build:\n{output}"
    return None


BUNDLE_ACCESSOR = """// Generated by scripts/check-darwin.py as SwiftPM generates it for a target with resources.
import Foundation
extension Foundation.Bundle {
    static let module: Bundle = Bundle(path: Bundle.main.bundlePath)!
}
"""


def resource_targets():
    """Targets Package.swift gives resources (SwiftPM generates their `Bundle.module`)."""
    with open(os.path.join(ROOT, "Package.swift"), encoding="utf-8") as handle:
        manifest = handle.read()
    found = set()
    for block in re.split(r"\.(?:target|executableTarget|testTarget)\(", manifest)[1:]:
        name = re.search(r'name:\s*"([^"]+)"', block)
        head = block.split(".target(")[0]
        if name and re.search(r"\bresources:", head.split("),\n        .")[0]):
            found.add(name.group(1))
    return found


def check_platform(platform, targets, order, executables, imports):
    table = PLATFORMS[platform]
    out = os.path.join(WORK, platform)
    shutil.rmtree(out, ignore_errors=True)
    modules = os.path.join(out, "modules")
    problem = build_surface(platform, modules)
    if problem:
        return platform, [problem], {}, []
    errors, checked, elapsed = [], {}, 0.0
    failed, accepted = set(), []
    for target in order:
        if platform != "macOS" and target in executables:
            continue
        if imports[target] & failed:
            failed.add(target)
            continue
        copies, prefix_map = [], []
        for path in targets[target]:
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().split("\n")
            _, literals = active_lines(lines, table, path)
            copy = os.path.join(out, "src", os.path.relpath(path, SOURCES))
            os.makedirs(os.path.dirname(copy), exist_ok=True)
            with open(copy, "w", encoding="utf-8") as handle:
                handle.write("" if shorten(path) in NOT_CHECKED_YET else "\n".join(rewrite(lines, literals)))
            copies.append(copy)
        if target in resource_targets():
            accessor = os.path.join(out, "generated", target, "resource_bundle_accessor.swift")
            os.makedirs(os.path.dirname(accessor), exist_ok=True)
            with open(accessor, "w", encoding="utf-8") as handle:
                handle.write(BUNDLE_ACCESSOR)
            copies.append(accessor)
        prefix_map.append((os.path.join(out, "src") + os.sep, "Sources" + os.sep))
        command = [SWIFTC, "-swift-version", "6", "-module-name", target, "-suppress-warnings",
                   "-I", modules, "-I", os.path.join(SURFACE, "c"),
                   "-enable-testing", "-package-name", "rehearsal"]
        if platform == "iOS":
            command += ["-D", "SURFACE_IOS"]
        # Bodies are type-checked without SIL (`-typecheck`: Linux Foundation's inlinable code would
        # need the real Glibc); dependants then read a body-less module of the same sources.
        library = [] if target in executables else ["-parse-as-library"]
        steps = [command + library + ["-typecheck", "-wmo"]]
        if target not in executables:
            steps.append(command + library + ["-emit-module", "-wmo", "-Xfrontend", "-experimental-skip-all-function-bodies",
                                              "-emit-module-path", os.path.join(modules, f"{target}.swiftmodule")])
        code, output = 0, ""
        for step in steps:
            code, output, seconds = run(step + copies, prefix_map)
            elapsed += seconds
            if code != 0:
                errors_found = ERROR_LINE.findall(output)
                undecidable = [e for e in errors_found if any(
                    os.path.basename(e[0]) == name and re.search(pattern, e[3]) for name, pattern, _ in CANNOT_DECIDE_ON_LINUX)]
                stray = [line for line in output.splitlines() if line.startswith("error:")]
                if errors_found and len(undecidable) == len(errors_found) and not stray:
                    accepted.extend(f"{e[0]}:{e[1]}" for e in undecidable)
                    code = 0
                    continue
                break
        if code != 0:
            errors.append(f"[{platform}] {target} does not type-check against the Apple surface:\n{output.strip()}")
            failed.add(target)  # its dependants are skipped: they would only repeat the error
            continue
        checked[target] = True
    return platform, errors, checked, accepted


def main():
    started = time.monotonic()
    if not os.path.isdir(SOURCES):
        print("check-darwin: run from the package root", file=sys.stderr)
        return 2
    targets = discover_targets()
    executables = {t for t, files in targets.items() if any(os.path.basename(f) == EXECUTABLE_MARK for f in files)}
    problems = []

    # Darwin-only lines: compiled on an Apple platform and not on Linux.
    darwin_only = {}  # path -> {platform: count}
    imports = {t: set() for t in targets}
    for target, files in targets.items():
        for path in files:
            with open(path, encoding="utf-8") as handle:
                lines = handle.read().split("\n")
            try:
                linux, _ = active_lines(lines, LINUX, path)
                per_platform = {}
                for platform, table in PLATFORMS.items():
                    apple, _ = active_lines(lines, table, path)
                    count = sum(1 for a, l, text in zip(apple, linux, lines)
                                if a and not l and text.strip() and not text.strip().startswith("//"))
                    if count:
                        per_platform[platform] = count
                    for a, text in zip(apple, lines):
                        match = IMPORT.match(text)
                        if a and match and match.group(1) in targets and match.group(1) != target:
                            imports[target].add(match.group(1))
                if per_platform:
                    darwin_only[path] = per_platform
            except ConditionError as error:
                problems.append(str(error))
    if problems:
        print("check-darwin: FAILED\n" + "\n".join(problems))
        return 1

    # Dependency order from the import lines (Swift targets only: a C target without Swift files is
    # never imported on Apple platforms; if it were, the import fails the check loudly).
    order, state = [], {}

    def visit(target, chain):
        if state.get(target) == "done":
            return
        if state.get(target) == "visiting":
            raise ConditionError("import cycle: " + " -> ".join(chain + [target]))
        state[target] = "visiting"
        for dependency in sorted(imports[target]):
            visit(dependency, chain + [target])
        state[target] = "done"
        if targets[target]:
            order.append(target)
    for target in sorted(targets):
        visit(target, [])

    jobs = int(os.environ.get("DARWIN_CHECK_JOBS", "2"))
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(lambda p: check_platform(p, targets, order, executables, imports), PLATFORMS))

    covered = {platform: checked for platform, _, checked, _ in results}
    accepted = sorted({a for _, _, _, found in results for a in found})
    for _, errors, _, _ in results:
        problems += errors
    not_checked = []
    lines_total = {p: 0 for p in PLATFORMS}
    files_total = {p: 0 for p in PLATFORMS}
    for path, per_platform in sorted(darwin_only.items()):
        target = os.path.relpath(path, SOURCES).split(os.sep)[0]
        for platform, count in per_platform.items():
            if shorten(path) in NOT_CHECKED_YET:
                not_checked.append(f"[{platform}] {shorten(path)}: {count} Darwin-only lines not checked (known gap): "
                                   f"{NOT_CHECKED_YET[shorten(path)]}")
            elif covered.get(platform, {}).get(target):
                lines_total[platform] += count
                files_total[platform] += 1
            elif not any(e.startswith(f"[{platform}]") for e in problems):
                if platform == "macOS" or target not in executables:
                    problems.append(f"[{platform}] {shorten(path)}: {count} Darwin-only lines in target {target}, "
                                    f"which the check did not type-check")
    seconds = time.monotonic() - started
    summary = ", ".join(f"{p}: {lines_total[p]} Darwin-only lines in {files_total[p]} files "
                        f"({len(covered.get(p, {}))} targets)" for p in PLATFORMS)
    for gap in not_checked:
        print("check-darwin: " + gap)
    if problems:
        print("\n\n".join(problems))
        print(f"\ncheck-darwin: FAILED ({summary}; {seconds:.0f} s). The Apple surface the code is checked "
              f"against is scripts/darwin-surface/; a declaration missing there is added with its source "
              f"(see its README), an error in Sources/ is a real Apple-platform build failure.")
        return 1
    if accepted:
        print("check-darwin: accepted, as Linux cannot decide them (CANNOT_DECIDE_ON_LINUX): " + ", ".join(accepted))
    print(f"check-darwin: OK — {summary}; {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ConditionError as error:
        print(f"check-darwin: FAILED\n{error}")
        sys.exit(1)
