import Foundation
import StubServer

/// `start --https` without a certificate, and `stubserver cert`: the local development
/// authority and this machine's server certificate (`DevelopmentCertificates`).
enum DevelopmentCertificateCommand {
    static let name = "cert"

    /// Makes (once) or reuses the development certificate; the start line's notes say how to trust it.
    /// `host`: the `--host` address, added to the certificate's names when it is a concrete
    /// address other clients will use (a device on the LAN connecting to 192.168.1.20).
    static func identityForStart(host: String?) throws -> HTTPSOptions.Choice {
        var names = DevelopmentCertificates.defaultNames()
        if let host, !["0.0.0.0", "::", "127.0.0.1", "::1", "localhost"].contains(host), !names.contains(host) {
            names.append(host)
        }
        do {
            let status = try DevelopmentCertificates.ensure(names: names)
            let identity = try DevelopmentCertificates.identity(directory: status.paths.directory)
            var choice = HTTPSOptions.Choice(
                identity: identity, source: "the development certificate for \(status.names.joined(separator: ", "))")
            choice.notes = { url in trustInstructions(status, url: url.absoluteString + "/") }
            return choice
        } catch {
            throw RuntimeFailure(error.message, "give a certificate instead: --certificate <pem> --private-key <pem>")
        }
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let options: [CommandLineArguments.Option] = [.flag("--renew"), .flag("--new-authority"), .value("--dir")]
        guard let parsed = try CommandLineArguments.parse(arguments, options: options, command: name, help: Help.cert) else {
            return 0
        }
        let directory = parsed["dir"] ?? DevelopmentCertificates.defaultDirectory()
        let status: DevelopmentCertificates.Status
        do {
            status = try DevelopmentCertificates.ensure(
                directory: directory, renew: parsed.has("renew"), newAuthority: parsed.has("new-authority"))
        } catch {
            throw RuntimeFailure(error.message)
        }
        if status.madeAuthority { Console.out("Made a new development authority: clients must trust it (again).") }
        if status.madeCertificate { Console.out("Made a new server certificate.") }
        for line in trustInstructions(status, url: "https://localhost:PORT/") { Console.out(line) }
        return 0
    }

    /// Where the files are and how to trust the authority, one client per line.
    static func trustInstructions(_ status: DevelopmentCertificates.Status, url: String) -> [String] {
        let authority = shellQuoted(status.paths.authorityCertificate)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
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
        path.allSatisfy { $0.isLetter || $0.isNumber || "/._-".contains($0) }
            ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
