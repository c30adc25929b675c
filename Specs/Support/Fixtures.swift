import DesignerNews
import Foundation

/// Values decoded once from the `Stubs/` files, for specs that need the app's data without a
/// server. Reading one throws the decoding failure (file and coding path) if the file is broken,
/// so the step that needs it fails instead of the whole run.
enum Fixtures {
    static var accessToken: AccessToken { get throws { try accessTokenFile.get() } }
    static var frontPage: StoriesPage { get throws { try frontPageFile.get() } }

    private static let accessTokenFile = load(AccessToken.self, "login_response.json")
    private static let frontPageFile = load(StoriesPage.self, "stories.json")

    private static func load<T: Decodable & Sendable>(_ type: T.Type, _ name: String) -> Result<T, DecodingFailure> {
        Result {
            try decode(T.self, fromFile: StubsFolder.file(name), decoder: DesignerNewsJSON.decoder())
        }.mapError { $0 as? DecodingFailure ?? DecodingFailure($0, decoding: T.self, source: "Stubs/\(name)") }
    }
}
