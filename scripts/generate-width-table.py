#!/usr/bin/env python3
"""Generate Sources/TextScreen/Layout/DisplayWidthTable.swift.

Swift's `Unicode.Scalar.Properties` has no East Asian Width property on Linux, so TextSnapshot
ships the Wide (W) and Fullwidth (F) ranges of UAX #11 as a sorted table of scalar ranges.

Source data: Python's `unicodedata` (its Unicode version is written into the output).
Rules:
  * keep assigned code points (category != Cn) whose east_asian_width is W or F;
  * add the ranges UAX #11 defaults to W even while unassigned (CJK ideograph blocks and planes 2–3);
  * merge runs, bridging gaps made only of unassigned code points, so the table stays small.
Emoji that became Wide after this Unicode version are covered at run time by
`isEmojiPresentation` (the Swift runtime carries newer data), see DisplayWidth.swift.

Run: python3 scripts/generate-width-table.py > Sources/TextScreen/Layout/DisplayWidthTable.swift
(or `make width-table`). Commit the result; never edit it by hand.
"""
import sys
import unicodedata

DEFAULT_WIDE = [(0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x2FFFD), (0x30000, 0x3FFFD)]


def is_wide(cp):
    ch = chr(cp)
    if unicodedata.category(ch) == "Cn":
        return any(lo <= cp <= hi for lo, hi in DEFAULT_WIDE)
    return unicodedata.east_asian_width(ch) in ("W", "F")


def unassigned(cp):
    return unicodedata.category(chr(cp)) == "Cn" and not any(lo <= cp <= hi for lo, hi in DEFAULT_WIDE)


def main():
    ranges = []
    cp = 0
    while cp <= 0x10FFFF:
        if is_wide(cp):
            start = cp
            while cp + 1 <= 0x10FFFF and is_wide(cp + 1):
                cp += 1
            ranges.append([start, cp])
        cp += 1
    merged = []
    for lo, hi in ranges:
        if merged and all(unassigned(c) for c in range(merged[-1][1] + 1, lo)):
            merged[-1][1] = hi
        else:
            merged.append([lo, hi])
    out = sys.stdout
    out.write("// GENERATED FILE — do not edit. Regenerate with `make width-table`\n")
    out.write("// (python3 scripts/generate-width-table.py > Sources/TextScreen/Layout/DisplayWidthTable.swift).\n")
    out.write("// East Asian Width W and F ranges from Unicode %s (Python unicodedata), assigned code points plus\n" % unicodedata.unidata_version)
    out.write("// UAX #11's default-wide blocks; gaps of unassigned code points are bridged to keep the table small.\n")
    out.write("// %d ranges.\n\n" % len(merged))
    out.write("enum DisplayWidthTable {\n")
    out.write("    /// Sorted, non-overlapping closed ranges of scalars that take two columns.\n")
    out.write("    static let wide: [ClosedRange<UInt32>] = [\n")
    for lo, hi in merged:
        out.write("        0x%04X...0x%04X,\n" % (lo, hi))
    out.write("    ]\n}\n")


if __name__ == "__main__":
    main()
