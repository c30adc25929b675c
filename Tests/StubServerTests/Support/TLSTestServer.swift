import Foundation
import XCTest

@testable import HTTPEngine
@testable import StubServer

/// An HTTPS server for upstream tests: `openssl s_server -WWW` serving the files of a temporary
/// directory on 127.0.0.1 with an ephemeral port, under a certificate made for the test
/// (`localhost` and, unless told otherwise, `127.0.0.1`). Each response is HTTP/1.0 and closes
/// the connection. Skips the test when the `openssl` command is missing, and on Apple platforms.
final class TLSTestServer {
    let directory: TemporaryDirectory
    let port: Int
    /// The self-signed certificate, to trust as an authority.
    let certificatePath: String
    private let process = Process()

    init(files: [String: String], certificateNames: String = "DNS:localhost,IP:127.0.0.1") throws {
        #if canImport(Darwin)
        // There https goes through URLSession and the keychain's trust, not OpenSSL.
        throw XCTSkip("Linux only: on Apple platforms https upstreams use URLSession")
        #else
        guard let openssl = Self.openssl else { throw XCTSkip("the openssl command is not installed") }
        directory = try TemporaryDirectory()
        for (name, text) in files { try directory.write(name, text) }
        certificatePath = directory.path + "/cert.pem"
        let keyPath = directory.path + "/key.pem"
        let request = Process()
        request.executableURL = openssl
        request.arguments = [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", keyPath, "-out", certificatePath, "-days", "2", "-subj", "/CN=localhost",
            "-addext", "subjectAltName=\(certificateNames)",
        ]
        request.standardOutput = FileHandle.nullDevice
        request.standardError = FileHandle.nullDevice
        try request.run()
        request.waitUntilExit()
        XCTAssertEqual(request.terminationStatus, 0, "openssl req failed")

        process.executableURL = openssl
        process.arguments = ["s_server", "-accept", "127.0.0.1:0", "-cert", certificatePath, "-key", keyPath, "-WWW"]
        process.currentDirectoryURL = directory.url
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        // It prints "ACCEPT 127.0.0.1:40123" first; the handler keeps draining its output after.
        let seen = LockedBox("")
        let done = LockedBox(false)
        let announced = DispatchSemaphore(value: 0)
        output.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            if chunk.isEmpty { return handle.readabilityHandler = nil }
            guard !done.value else { return }
            seen.value += String(decoding: chunk, as: UTF8.self)
            if seen.value.split(separator: "\n", omittingEmptySubsequences: false).dropLast().contains(where: { $0.hasPrefix("ACCEPT") }) {
                done.value = true
                announced.signal()
            }
        }
        try process.run()
        let answered = announced.wait(timeout: .now() + 20) == .success
        guard answered, let line = seen.value.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
            let port = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
        else {
            process.terminate()
            throw NSError(
                domain: "TLSTestServer", code: 1, userInfo: [NSLocalizedDescriptionKey: "openssl s_server printed no port: \(seen.value)"])
        }
        self.port = port
        #endif
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
    }

    private static var openssl: URL? {
        for directory in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let url = URL(fileURLWithPath: directory + "/openssl")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return nil
    }
}
