import DesignerNews
import Foundation

/// Values decoded once from the `Stubs/` files, for specs that need the app's data without a server.
enum Fixtures {
    static let accessToken: AccessToken = load("login_response.json")
    static let frontPage: StoriesPage = load("stories.json")
    static let secondPage: StoriesPage = load("stories_page2.json")

    private static func load<T: Decodable>(_ name: String) -> T {
        do {
            return try decode(T.self, fromFile: StubsFolder.file(name), decoder: DesignerNewsJSON.decoder())
        } catch {
            fatalError("Stubs/\(name) is the fixture of the screen snapshots and must decode: \(error)")
        }
    }
}
