import TextSnapshot
import XCTest

/// TextSnapshot used as a user would: committed references in `__Snapshots__/GoldenScreenTests/`,
/// default record modes (recorded locally when missing, never on CI). They show how Japanese and
/// Arabic lay out on the smallest phone and on the pad.
final class GoldenScreenTests: XCTestCase {
    static let strings = StringsCatalog(strings: [
        "en": ["title": "Top stories", "empty": "No stories yet. Pull to refresh.", "points": "%d points", "login": "Log in"],
        "ja": ["title": "トップストーリー", "empty": "まだストーリーがありません。下に引いて更新してください。", "points": "%dポイント", "login": "ログイン"],
        "ar": ["title": "أهم القصص", "empty": "لا توجد قصص بعد. اسحب للتحديث.", "points": "%d نقطة", "login": "تسجيل الدخول"],
    ])

    func testStoriesScreen() {
        let localizer = Localizer(catalog: Self.strings, language: .en)
        assertScreenSnapshots(languages: [.en, .ja, .ar], devices: [.phone4inch, .pad], localizer: localizer) { context in
            TextNode.stack(
                [
                    .titleBar(context.strings("title"), trailing: "⟳"),
                    .list([
                        .row(
                            leading: .text("Swift 6 で並行処理を安全に書く方法についての長いタイトル", lineLimit: 2),
                            trailing: .text(context.strings("points", 128))),
                        .row(
                            leading: .text("A text snapshot of every screen in every language"),
                            trailing: .text(context.strings("points", 7))),
                    ]),
                    .divider,
                    .text(context.strings("empty"), alignment: .center),
                    .image(alt: "logo", rows: 3),
                    .button(context.strings("login")),
                ], spacing: 1)
        }
    }
}
