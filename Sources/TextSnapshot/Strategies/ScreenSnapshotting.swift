extension Snapshotting where Value: ScreenRenderable {
    /// A screen laid out on a device's text grid, with a header naming language, device, grid,
    /// orientation and direction. For many languages and devices at once use
    /// ``assertScreenSnapshots(languages:devices:orientations:sampling:localizer:record:snapshotDirectory:file:testName:line:_:)``.
    ///
    /// ```swift
    /// assertSnapshot(of: TextNode.text("こんにちは"), as: .screen(device: .phone4inch, language: .ja))
    /// ```
    public static func screen(
        device: Device = .phone4_7inch, orientation: Orientation = .portrait,
        language: Language = .en, localizer: Localizer? = nil
    ) -> Snapshotting<Value> {
        .screen(SnapshotContext(language: language, device: device, orientation: orientation, localizer: localizer))
    }

    /// A screen rendered in a given context.
    public static func screen(_ context: SnapshotContext) -> Snapshotting<Value> {
        Snapshotting(pathExtension: "txt") { value in
            SnapshotContext.withContext(context) {
                ScreenRenderer.render(value.screen(in: context), in: context)
            }
        }
    }
}
