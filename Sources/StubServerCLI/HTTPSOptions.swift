import Foundation
import StubServer

/// The HTTPS options of `start` and of moco's `https` task, and the identity they name.
enum HTTPSOptions {
    static let command = "https"

    /// `start --https [--certificate PEM --private-key PEM]`.
    static let startOptions: [CommandLineArguments.Option] = [
        .flag("--https"), .certificate, .privateKey,
    ]

    /// moco's `https --https KEYSTORE --keystore STOREPASS --cert KEYPASS`, or PEM files.
    static let httpsOptions: [CommandLineArguments.Option] = [
        .value("--https"), .value("--keystore"), .value("--cert"), .certificate, .privateKey,
    ]

    struct Choice {
        var identity: TLSIdentity
        /// Where it came from, for the start line.
        var source: String
        /// Lines printed after the start line (how to trust a development certificate).
        var notes: ((URL) -> [String])? = nil
    }

    /// nil for plain HTTP. Usage errors for incomplete combinations; runtime errors for files
    /// that cannot be read or do not hold what they should.
    static func identity(_ parsed: CommandLineArguments, https: Bool, command: String) throws -> Choice? {
        let certificate = parsed["certificate"]
        let key = parsed["private-key"]
        if (certificate == nil) != (key == nil) {
            throw UsageError(
                message: certificate == nil ? "'--private-key' needs '--certificate <pem>'" : "'--certificate' needs '--private-key <pem>'",
                command: command)
        }
        if https {
            let keystore = parsed["https"]
            if keystore != nil && certificate != nil {
                throw UsageError(
                    message: "give either '--https <keystore>' or '--certificate' with '--private-key', not both", command: command)
            }
            if let keystore {
                // moco: "keystore and cert must be set for HTTPS"; --keystore is the store's
                // password, --cert the key's.
                guard let storePassword = parsed["keystore"], let keyPassword = parsed["cert"] else {
                    throw UsageError(
                        message: "'--https <keystore>' needs '--keystore <store-password>' and '--cert <key-password>'", command: command)
                }
                do {
                    return Choice(
                        identity: try TLSIdentity(keystoreFile: keystore, storePassword: storePassword, keyPassword: keyPassword),
                        source: "keystore \(keystore)")
                } catch {
                    throw RuntimeFailure(error.message)
                }
            }
            guard certificate != nil else {
                throw UsageError(
                    message:
                        "missing '--https <keystore>' (with '--keystore' and '--cert'), or '--certificate <pem>' with '--private-key <pem>'",
                    command: command)
            }
        } else if !parsed.has("https") {
            if certificate != nil { throw UsageError(message: "'--certificate' needs '--https'", command: command) }
            return nil
        }
        if let certificate, let key {
            do {
                return Choice(
                    identity: try TLSIdentity(certificateFile: certificate, privateKeyFile: key), source: "certificate \(certificate)")
            } catch {
                throw RuntimeFailure(error.message)
            }
        }
        return try DevelopmentCertificateCommand.identityForStart(host: parsed["host"])
    }
}
