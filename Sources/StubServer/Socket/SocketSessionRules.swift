/// What a `socket` configuration may say. moco's socket server reads the same JSON as its HTTP
/// server, but a socket request is only the text received: sessions match it with `text`,
/// `file`, `json`, `json_paths`, `xpaths`, `struct` and the operators, and answer with `text`,
/// `file` or `json` (templates over `req.content`), `latency`, `seq` or `cycle`. Anything HTTP
/// (`uri`, `headers`, `status`, `proxy`, …) is refused at load time with its JSON path.
enum SocketSessionRules {
    static func problems(in stubs: [StubDefinition]) -> [ConfigDiagnostic] {
        var problems: [ConfigDiagnostic] = []
        for (position, stub) in stubs.enumerated() {
            let reference = stub.reference ?? StubReference(file: "stubs", index: position)
            func refuse(_ path: String) {
                problems.append(
                    ConfigDiagnostic(
                        file: reference.file, path: "[\(reference.index)]\(path)",
                        message: "not available on a socket server (socket sessions match the text received and answer text)"))
            }
            if stub.redirectTo != nil { refuse(".redirectTo") }
            if stub.mount != nil { refuse(".mount") }
            if stub.resource != nil { refuse(".resource") }
            if stub.onComplete != nil { refuse(".on") }
            if let request = stub.request {
                if request.uri != nil { refuse(".request.uri") }
                if request.method != nil { refuse(".request.method") }
                if request.version != nil { refuse(".request.version") }
                if !request.headers.isEmpty { refuse(".request.headers") }
                if !request.queries.isEmpty { refuse(".request.queries") }
                if !request.cookies.isEmpty { refuse(".request.cookies") }
                if !request.forms.isEmpty { refuse(".request.forms") }
            }
            if let response = stub.response { check(response, at: ".response", refuse) }
        }
        return problems
    }

    private static func check(_ response: ResponseDefinition, at path: String, _ refuse: (String) -> Void) {
        if response.status != nil { refuse(path + ".status") }
        if !response.headers.isEmpty { refuse(path + ".headers") }
        if !response.cookies.isEmpty { refuse(path + ".cookies") }
        if response.version != nil { refuse(path + ".version") }
        if response.attachment != nil { refuse(path + ".attachment") }
        if response.cors != nil { refuse(path + ".cors") }
        if response.proxy != nil { refuse(path + ".proxy") }
        if response.record != nil { refuse(path + ".record") }
        if response.replay != nil { refuse(path + ".replay") }
        if response.sse != nil { refuse(path + ".sse") }
        if response.dribble != nil { refuse(path + ".dribble") }
        if response.fault != nil { refuse(path + ".fault") }
        if response.websocket != nil { refuse(path + ".websocket") }
        if let sequence = response.sequence {
            let key: String
            switch sequence {
            case .seq: key = ".seq"
            case .cycle: key = ".cycle"
            }
            for (index, inner) in sequence.responses.enumerated() { check(inner, at: "\(path)\(key)[\(index)]", refuse) }
        }
    }
}
