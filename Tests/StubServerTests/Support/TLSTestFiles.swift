import Foundation
import XCTest

/// Certificates and keystores made per test with the system's tools: `openssl req` for PEM
/// files, `keytool` (Java) for JKS and PKCS#12 keystores as moco users make them.
enum TLSTestFiles {
    /// Runs a tool from the usual places; skips the test when it is not installed.
    @discardableResult
    static func run(_ tool: String, _ arguments: [String], in directory: TemporaryDirectory, input: String? = nil) throws -> (
        status: Int32, output: String
    ) {
        guard
            let executable = ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin"].map({ URL(fileURLWithPath: $0 + "/" + tool) })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else { throw XCTSkip("\(tool) is not installed") }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory.url
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        // The output is read to its end before waiting, so a full pipe cannot stall the tool.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        try? stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// A self-signed EC certificate and its key, PEM, for `names` (`DNS:localhost,IP:127.0.0.1`).
    static func selfSigned(in directory: TemporaryDirectory, prefix: String = "", names: String = "DNS:localhost,IP:127.0.0.1") throws -> (
        certificate: String, key: String
    ) {
        let certificate = directory.path + "/\(prefix)cert.pem"
        let key = directory.path + "/\(prefix)key.pem"
        let result = try run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key, "-out", certificate, "-days", "2", "-subj", "/CN=localhost", "-addext", "subjectAltName=\(names)",
            ], in: directory)
        XCTAssertEqual(result.status, 0, result.output)
        return (certificate, key)
    }

    /// A keystore made by `keytool -genkeypair` (`type` JKS or PKCS12) for localhost and
    /// 127.0.0.1, and its certificate exported as PEM (to trust it).
    static func keystore(
        in directory: TemporaryDirectory, type: String, keyAlgorithm: [String] = ["-keyalg", "EC", "-groupname", "secp256r1"],
        storePassword: String = "mocohttps", keyPassword: String = "mocohttps"
    ) throws -> (keystore: String, certificate: String) {
        let keystore = directory.path + "/cert.\(type == "JKS" ? "jks" : "p12")"
        let generated = try run(
            "keytool",
            [
                "-genkeypair", "-alias", "moco", "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                "-validity", "2", "-keystore", keystore, "-storetype", type, "-storepass", storePassword, "-keypass", keyPassword,
            ] + keyAlgorithm, in: directory)
        XCTAssertEqual(generated.status, 0, generated.output)
        let certificate = directory.path + "/exported.pem"
        let exported = try run(
            "keytool",
            [
                "-exportcert", "-rfc", "-alias", "moco", "-keystore", keystore, "-storetype", type, "-storepass", storePassword, "-file",
                certificate,
            ], in: directory)
        XCTAssertEqual(exported.status, 0, exported.output)
        return (keystore, certificate)
    }
}
