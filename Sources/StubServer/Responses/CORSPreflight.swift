import Foundation

/// A browser's CORS preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) that no
/// session matches as it is: it is answered for the first session with a `cors` response that
/// would serve the requested method at that URI. moco answers only sessions that match `OPTIONS`
/// themselves, so a `"method": "post"` stub with `cors` could never be called from a page.
///
/// ```
/// OPTIONS /orders  Origin: https://app.example  Access-Control-Request-Method: POST
/// → 204, Access-Control-Allow-Origin/-Methods/-Headers/-Max-Age/-Credentials as the stub's cors says
/// ```
struct CORSPreflight {
    /// The method the browser asks about, in upper case (`Access-Control-Request-Method`).
    let requestedMethod: String

    /// Nil unless `view` is a preflight: `OPTIONS` carrying both a non-empty `Origin` and
    /// `Access-Control-Request-Method`.
    init?(_ view: RequestView) {
        guard view.method == "OPTIONS",
            let origin = view.request.headers["Origin"], !origin.isEmpty,
            let requested = view.request.headers["Access-Control-Request-Method"]?.trimmingCharacters(in: .whitespaces),
            !requested.isEmpty
        else { return nil }
        requestedMethod = requested.uppercased()
    }

    /// `204 No Content` with the headers `policy` gives an `OPTIONS` request from this origin.
    static func reply(_ policy: CORSPolicy, _ view: RequestView) -> HTTPReply {
        var headers = HTTPHeaders()
        CORSHeaders.apply(policy, method: "OPTIONS", headers: view.request.headers, to: &headers)
        return HTTPReply(.response(HTTPResponse(status: 204, headers: headers, body: [])))
    }
}
