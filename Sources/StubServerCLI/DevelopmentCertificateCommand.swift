import Foundation
import StubServer

/// `start --https` without a certificate, and `stubserver cert`: the local development
/// authority and this machine's server certificate (`DevelopmentCertificates`).
enum DevelopmentCertificateCommand {
    static let name = "cert"

    /// Makes (once) or reuses the development certificate; the start line's notes say how to trust it.
    static func identityForStart() throws -> HTTPSOptions.Choice {
        do {
            let status = try DevelopmentCertificates.ensure()
            let identity = try DevelopmentCertificates.identity(directory: status.paths.directory)
            var choice = HTTPSOptions.Choice(identity: identity, source: "the development certificate for \(status.names.joined(separator: ", "))")
            choice.notes = { port in trustInstructions(status, port: port) }
            return choice
        } catch {
            throw RuntimeFailure(error.message, "give a certificate instead: --certificate <pem> --private-key <pem>")
        }
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, options: [
            .init(names: ["--renew"], key: "renew", takesValue: false),
            .init(names: ["--new-authority"], key: "new-authority", takesValue: false),
            .init(names: ["--dir"], key: "dir", takesValue: true),
        ], command: name)
        if parsed.wantsHelp {
            Console.out(Help.cert)
            return 0
        }
        let directory = parsed["dir"] ?? DevelopmentCertificates.defaultDirectory()
        let status: DevelopmentCertificates.Status
        do {
            status = try DevelopmentCertificates.ensure(directory: directory, renew: parsed.has("renew"), newAuthority: parsed.has("new-authority"))
        } catch {
            throw RuntimeFailure(error.message)
        }
        if status.madeAuthority { Console.out("Made a new development authority: clients must trust it (again).") }
        if status.madeCertificate { Console.out("Made a new server certificate.") }
        for line in trustInstructions(status, port: nil) { Console.out(line) }
        return 0
    }

    /// Where the files are and how to trust the authority, one client per line.
    static func trustInstructions(_ status: DevelopmentCertificates.Status, port: Int?) -> [String] {
        let authority = shellQuoted(status.paths.authorityCertificate)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        let url = "https://localhost:\(port.map(String.init) ?? "PORT")/"
        return [
            "Development CA: \(status.paths.authorityCertificate)",
            "Server certificate: \(status.paths.certificate) for \(status.names.joined(separator: ", ")), until \(formatter.string(from: status.expires))",
            "Trust the CA once where the client runs:",
            "  curl:           curl --cacert \(authority) \(url)",
            "  iOS Simulator:  xcrun simctl keychain booted add-root-cert \(authority)",
            "  macOS:          security add-trusted-cert -r trustRoot -k ~/Library/Keychains/login.keychain-db \(authority)",
            "  iPhone/iPad:    send ca.pem to the device (AirDrop, mail), install it in Settings > General > VPN & Device Management,",
            "                  then turn on full trust in Settings > General > About > Certificate Trust Settings",
            "  Linux:          sudo cp \(authority) /usr/local/share/ca-certificates/rehearsal-dev-ca.crt && sudo update-ca-certificates",
            "  Swift clients:  UpstreamClient.Configuration.trustedCertificatesFile, or TrustingAuthorityDelegate (Apple platforms)",
        ]
    }

    private static func shellQuoted(_ path: String) -> String {
        path.allSatisfy { $0.isLetter || $0.isNumber || "/._-".contains($0) } ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
