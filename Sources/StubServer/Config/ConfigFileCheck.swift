/// Load-time checks of the files responses and mounts name. They are read per request (so a
/// file may appear later), so these are warnings: a `file` that does not exist or climbs out
/// of its root, a mount directory that is missing, and a name found both in the working
/// directory and next to the configuration (the working directory wins, as in moco).
extension LoadRun {
    mutating func checkFiles() {
        for stub in stubs {
            guard let reference = stub.reference else { continue }
            let base = "[\(reference.index)]"
            if let response = stub.response {
                checkResponse(response, scope: stub.scope, file: reference.file, path: base + ".response")
            }
            if let matcher = stub.request?.file {
                // Read at load time; a missing one is a warning (the session never matches), as
                // moco reads it only when the session is tried.
                checkFile(
                    FileSource(name: .literal(matcher.path)), scope: stub.scope, file: reference.file, path: base + ".request.file",
                    missingConsequence: "the session never matches until it exists and the configuration is reloaded")
            }
            if let mount = stub.mount {
                let directory = StubCompiler.mountDirectory(mount.dir.trimmingASCIIWhitespace(), scope: stub.scope)
                if !LoadRun.isDirectory(directory) {
                    warn(
                        reference.file, base + ".mount.dir",
                        "no directory \(quoted(mount.dir)) (looked for \(quoted(directory))); the mount serves nothing until it exists")
                }
            }
            if let resource = stub.resource {
                checkResource(resource, scope: stub.scope, file: reference.file, path: base + ".resource")
            }
        }
    }

    private mutating func checkResource(_ resource: ResourceDefinition, scope: StubScope, file: String, path: String) {
        for (key, entries) in [
            ("get", resource.get), ("post", resource.post), ("put", resource.put), ("delete", resource.delete), ("head", resource.head),
            ("patch", resource.patch),
        ] {
            for (offset, entry) in entries.enumerated() {
                checkResponse(entry.response, scope: scope, file: file, path: "\(path).\(key)[\(offset)].response")
            }
        }
        for (offset, sub) in resource.resources.enumerated() {
            checkResource(sub, scope: scope, file: file, path: "\(path).resource[\(offset)]")
        }
    }

    private mutating func checkResponse(_ response: ResponseDefinition, scope: StubScope, file: String, path: String) {
        if let proxy = response.proxy {
            if let failover = proxy.failover {
                checkSavedFile(failover.file, kind: "failover", scope: scope, file: file, path: path + ".proxy.failover")
            }
            if let playback = proxy.playback {
                checkSavedFile(playback.file, kind: "playback", scope: scope, file: file, path: path + ".proxy.playback")
            }
        }
        if let tape = response.record?.tape { checkSavedFile(tape, kind: "tape", scope: scope, file: file, path: path + ".record.tape") }
        if let tape = response.replay?.record.tape {
            checkSavedFile(tape, kind: "tape", scope: scope, file: file, path: path + ".replay.tape")
        }
        if case .file(let source)? = response.body { checkFile(source, scope: scope, file: file, path: path + ".file") }
        if let attachment = response.attachment, case .file(let source) = attachment.body {
            checkFile(source, scope: scope, file: file, path: path + ".attachment.file")
        }
        if let sequence = response.sequence {
            let key: String
            if case .seq = sequence { key = "seq" } else { key = "cycle" }
            for (offset, element) in sequence.responses.enumerated() {
                checkResponse(element, scope: scope, file: file, path: "\(path).\(key)[\(offset)]")
            }
        }
    }

    private mutating func checkFile(
        _ source: FileSource, scope: StubScope, file: String, path: String,
        missingConsequence: String = "requests answer 400 until it exists"
    ) {
        guard case .literal(let name) = source.name else { return } // built per request
        let underRoot = ConfinedFiles.resolve(name, root: scope.fileRoot)
        let fallback = scope.fallbackRoot.flatMap { $0 == scope.fileRoot ? nil : $0 }
        var there: String?
        if let fallback, case .success(let path) = ConfinedFiles.resolve(name, root: fallback), ConfinedFiles.isRegularFile(path) {
            there = path
        }
        switch underRoot {
        case .success(let here):
            if let there, there != here {
                warn(
                    file, path,
                    "\(quoted(name)) is both \(quoted(there)) (working directory) and \(quoted(here)) (next to the configuration); the working directory's is served, as in moco"
                )
            }
        case .failure(let failure):
            guard there == nil else { return }
            if failure.isNotFound {
                let places =
                    fallback.map { "looked in \(quoted(scope.fileRoot)) and the working directory \(quoted($0))" }
                    ?? "looked in \(quoted(scope.fileRoot))"
                warn(file, path, "no file \(quoted(name)) (\(places)); \(missingConsequence)")
            } else {
                warn(file, path, failure.message + "; requests are refused with 400")
            }
        }
    }

    /// A failover or playback file that does not exist is said at load (moco finds out at the
    /// first failover: "no failover response found"); a tape is normally written first, so
    /// only a name found in two places is worth a word.
    private mutating func checkSavedFile(_ name: String, kind: String, scope: StubScope, file: String, path: String) {
        let location = SavedFileLocation.resolve(name, scope: scope)
        if let shadowed = location.shadowed {
            warn(
                file, path,
                "\(quoted(name)) is both \(quoted(location.path)) (working directory) and \(quoted(shadowed)) (next to the configuration); the working directory's is used, as in moco"
            )
        }
        guard !location.exists, kind != "tape", !warnings.contains(where: { $0.message.contains(quoted(location.path)) }) else { return }
        let looked = location.candidates.map { quoted($0) }.joined(separator: " and ")
        let consequence =
            kind == "failover"
            ? "until the upstream answers once (saved there), a failover has nothing to replay"
            : "every request goes to the upstream until its answers are saved there"
        warn(file, path, "no \(kind) file \(quoted(name)) (looked for \(looked)); \(consequence)")
    }

    private mutating func warn(_ file: String, _ path: String, _ message: String) {
        warnings.append(ConfigDiagnostic(file: file, path: path, message: message))
    }
}
