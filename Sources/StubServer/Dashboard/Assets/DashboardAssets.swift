/// The dashboard's page, stylesheet and script, compiled into the server as strings: no
/// build step, no files to find at run time, nothing fetched from elsewhere (works offline).
/// Each lives in its own file under `Assets/` so it reads as what it is.
enum DashboardAssets {
    struct File {
        var text: String
        var type: String
    }

    static func file(named name: String) -> File? {
        switch name {
        case "dashboard.css": File(text: stylesheet, type: "text/css; charset=utf-8")
        case "dashboard.js": File(text: script, type: "text/javascript; charset=utf-8")
        default: nil
        }
    }
}
