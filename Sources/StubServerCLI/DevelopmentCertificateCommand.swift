import Foundation
import StubServer

/// `start --https` without a certificate.
enum DevelopmentCertificateCommand {
    static func identityForStart() throws -> HTTPSOptions.Choice {
        throw UsageError(message: "'--https' needs '--certificate <pem>' and '--private-key <pem>'", command: StartCommand.name)
    }
}
