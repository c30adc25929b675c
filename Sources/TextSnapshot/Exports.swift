// TextSnapshot is the XCTest-facing half (recorder, strategies, diff, assertions). What a screen
// needs at run time — TextNode and its layout, devices, languages, Localizer, SnapshotContext —
// lives in TextScreen, which app code may link; it is re-exported here so `import TextSnapshot`
// keeps giving tests everything.
@_exported import TextScreen
