/// Help texts, argument-parser style: overview, usage, options.
enum Help {
    static let topLevel = """
        OVERVIEW: A moco-compatible stub HTTP server.

        USAGE: stubserver <subcommand>

        SUBCOMMANDS:
          start                   Serve stubs from a JSON configuration.
          https                   moco's https task: serve over HTTPS with a JKS/PKCS#12 keystore or PEM files.
          socket                  moco's socket task: a TCP server whose sessions match and answer text.
          cert                    Show or renew the local development CA and certificate (start --https).
          shutdown                Stop a running server through its shutdown port.
          validate                Check a configuration and print every problem.
          check                   Check every stub against the API's OpenAPI document (contract drift).
          init                    Write stubs for every operation of an OpenAPI document.
          requests                List the requests a running server received (admin API).
          reset                   Reset a running server: journal, sequences, scenarios, added stubs.
          version                 Print the version.

          moco's task name 'http' is accepted for 'start'.

          See 'stubserver <subcommand> --help' for detailed help.

        EXIT CODES: 0 success, 64 usage error, 1 runtime error (port in use, bad configuration).
        """

    static let start = """
        OVERVIEW: Serve stubs from a JSON configuration, reloading it when a file changes.

        USAGE: stubserver start [-p <port>] (-c <config> | -g <settings> [-e <env>]) [-s <shutdown-port>] [--host <address>] [--admin-token <token> | --no-admin] [--allowed-host <names>] [--openapi <document>] [--threads <n>] [--max-memory <size>] [--content-length <bytes>] [--https [--certificate <pem> --private-key <pem>]] [-q]

        OPTIONS:
          -p, --port <port>       Port to listen on (default: 12306; 0 picks a free port).
          -c, --config <config>   Configuration file or quoted glob ("Stubs/*.json"); it may mix
                                  settings entries (include, context, …) and sessions.
          -g, --settings <settings>
                                  Global settings file (moco's -g).
          -e, --env <env>         With -g: load only the settings entries of this environment.
          -s, --shutdown-port <shutdown-port>
                                  Port for 'stubserver shutdown' (default: a free port, printed).
          --host <address>        Address to bind (default: 127.0.0.1). Anything else exposes the
                                  stubs to your network.
          --max-memory <size>     Memory budget of the whole process: itself (about 18M), its
                                  connections, buffered bodies and responses, the journal
                                  (default: 256M). Past it, large requests and responses get 503.
          --admin-token <token>   Turn the admin API (/__admin/) on wherever bound; every admin
                                  call then needs 'Authorization: Bearer <token>'.
          --no-admin              Turn the admin API off (then /__admin/ is routed like any path).
          --allowed-host <names>  Host names, comma-separated, under which the admin API answers
                                  besides localhost, IP addresses and --host (others get 403: DNS
                                  rebinding). Web pages from other origins are always refused.
          --openapi <document>    Check every request and stub response against this OpenAPI
                                  document; violations show in the log line, the journal and
                                  GET /__admin/contract-violations (docs/contract-checks.md).
          --threads <n>           Event loops (threads) serving requests, 1 to 1024 (default: one
                                  per CPU the process may use: its affinity mask, e.g. taskset,
                                  and its cgroup CPU quota, e.g. docker --cpus).
          -q, --quiet             Do not print a line per request.
          --content-length <bytes>
                                  Largest request body; larger ones get 413 (default: 10485760).
          --https                 Serve HTTPS instead of HTTP (Linux: through the system's OpenSSL).
                                  Without --certificate: a local development CA and a certificate
                                  for this machine, made once (see 'stubserver cert').
          --certificate <pem>     With --https: the certificate (chain), PEM.
          --private-key <pem>     With --https: its private key, PEM (unencrypted).
          -h, --help              Show help information.

        Configuration warnings (a response file that does not exist yet, …) are printed at start.
        The admin API is on by default only while bound to loopback.
        Prints 'Server is started at <port>' and 'Event loops: <n> (…)' once listening, then one line per request:
        method, path, status, the stub that answered (file#index) or 'no match', milliseconds.
        SIGINT or SIGTERM stops gracefully.
        """

    static let shutdown = """
        OVERVIEW: Stop a running server through its shutdown port (moco's protocol).

        USAGE: stubserver shutdown -s <shutdown-port>

        OPTIONS:
          -s, --shutdown-port <shutdown-port>
                                  The port printed as 'Shutdown port is <port>'.
          -h, --help              Show help information.
        """

    static let validate = """
        OVERVIEW: Check a configuration and print every problem (file, JSON path, what was expected).

        USAGE: stubserver validate (-c <config> | -g <settings> [-e <env>]) [--strict]

        OPTIONS:
          -c, --config <config>   Configuration file or quoted glob.
          -g, --settings <settings>
                                  Global settings file.
          -e, --env <env>         With -g: the environment to check (one no entry names is an error).
          --strict                Treat warnings (a missing response file, a file outside its root,
                                  a file included twice, …) as errors.
          -h, --help              Show help information.

        Prints '<config>: ok (N sessions from M files)' and exits 0 when the configuration loads;
        prints every problem and exits 1 when it has problems.
        """

    static let check = """
        OVERVIEW: Check every stub against the API's OpenAPI 3.0/3.1 document: the operation each
        stub stands for (method and path template), the query parameters, headers and body it
        requires, and each response it sends (status, headers, body against the schema).

        USAGE: stubserver check --openapi <document> (-c <config> | -g <settings> [-e <env>]) [--strict] [--format text|json] [--expect-drift <stubs>]

        OPTIONS:
          --openapi <document>    The OpenAPI document (JSON or YAML; $refs to files beside it are followed).
          -c, --config <config>   Configuration file or quoted glob.
          -g, --settings <settings>
                                  Global settings file.
          -e, --env <env>         With -g: the environment to check.
          --strict                Treat warnings (an undeclared header, an empty body where the API
                                  declares one, a body that cannot be checked) as drift.
          --format <format>       'text' (default): findings grouped by file with line:column, then a
                                  coverage table; 'json': the same for tools.
          --expect-drift <stubs>  Comma-separated stub ids (Stubs/worlds_conf.json#4) that break the
                                  contract on purpose; their drift is a note (a warning if they stop).
          -h, --help              Show help information.

        EXIT CODES: 0 no drift, 1 drift (or warnings with --strict) or a file that does not load,
        64 usage error.
        """

    static let initialise = """
        OVERVIEW: Write a moco configuration with one session per operation of an OpenAPI 3.0/3.1
        document: its success status and content type, its required headers, and a body from the
        document's examples (or values generated from the schema). Paths with variables become
        'match' expressions, so one stub answers every id. The stubs pass 'stubserver check'.

        USAGE: stubserver init --openapi <document> -o <folder> [--force]

        OPTIONS:
          --openapi <document>    The OpenAPI document (JSON or YAML).
          -o, --output <folder>   Where to write <document>_conf.json (created when missing).
          --force                 Replace the file when it exists (it is kept otherwise).
          -h, --help              Show help information.

        The file is written whole or not at all. What could not be made to meet the document (a
        pattern no generated string meets, an example that breaks its schema) is printed as a
        warning naming the operation and its JSON path in the document.

        EXIT CODES: 0 written, 1 a document that does not load or a file that cannot be written,
        64 usage error.
        """

    static let version = """
        OVERVIEW: Print the version.

        USAGE: stubserver version
        """

    static let requests = """
        OVERVIEW: List the requests a running server received, oldest first, one line each
        (unmatched ones with their closest stub and what it failed). Uses the admin API.

        USAGE: stubserver requests [-p <port>] [--unmatched] [--limit <n>] [--host <address>] [--admin-token <token>]

        OPTIONS:
          -p, --port <port>       The server's port (default: 12306, as for start).
          --unmatched             Only requests no stub answered.
          --limit <n>             Only the last <n>.
          --host <address>        The server's address (default: 127.0.0.1).
          --admin-token <token>   The server's --admin-token, if it has one.
          -h, --help              Show help information.

        Exits 1 when the server cannot be reached or refuses the call.
        """

    static let reset = """
        OVERVIEW: Reset a running server: journal cleared, seq/cycle and scenarios back to the
        start, stubs added through the admin API dropped. Uses the admin API.

        USAGE: stubserver reset [-p <port>] [--host <address>] [--admin-token <token>]

        OPTIONS:
          -p, --port <port>       The server's port (default: 12306, as for start).
          --host <address>        The server's address (default: 127.0.0.1).
          --admin-token <token>   The server's --admin-token, if it has one.
          -h, --help              Show help information.

        Exits 1 when the server cannot be reached or refuses the call.
        """

    static let https = """
        OVERVIEW: moco's https task: serve stubs over HTTPS (TLS 1.2+, the system's OpenSSL on Linux).

        USAGE: stubserver https [-p <port>] (-c <config> | -g <settings> [-e <env>]) (--https <keystore> --keystore <store-password> --cert <key-password> | --certificate <pem> --private-key <pem>) [start's other options]

        OPTIONS:
          --https <keystore>      A Java keystore as moco takes it: JKS (keytool -storetype JKS) or
                                  PKCS#12. The first private-key entry and its chain are served.
          --keystore <password>   The keystore's password (checks its integrity).
          --cert <password>       The private key's password.
          --certificate <pem>     Instead of a keystore: the certificate (chain), PEM ...
          --private-key <pem>     ... and its unencrypted private key, PEM.
          -h, --help              Show help information.

        Every option of 'stubserver start' works here too (-p, -c, -g, -e, -s, --host, -q, …).
        A plain-HTTP request on the port gets '400' saying the port speaks HTTPS.
        Example (moco's): stubserver https -p 12306 -c foo.json --https cert.jks --cert mocohttps --keystore mocohttps
        """

    static let socket = """
        OVERVIEW: moco's socket task: a TCP server whose sessions match the text a client sends and answer text.

        USAGE: stubserver socket [-p <port>] -c <config> [-s <shutdown-port>] [--host <address>] [--threads <n>] [-q]

        OPTIONS:
          -p, --port <port>       Port to listen on (default: 12306; 0 picks a free port).
          -c, --config <config>   Configuration file or quoted glob: moco sessions whose request uses
                                  text, file, json, json_paths, xpaths or struct (and the operators),
                                  and whose response uses text, file, json, latency, seq or cycle.
          -s, --shutdown-port <shutdown-port>
                                  Port for 'stubserver shutdown' (default: a free port, printed).
          --host <address>        Address to bind (default: 127.0.0.1).
          --threads <n>           Event loops (threads), 1 to 1024 (default: one per usable CPU).
          -q, --quiet             Do not print a line per request.
          -h, --help              Show help information.

        As in moco, each burst of bytes a client sends is one request; when no session matches,
        nothing is sent and the connection stays open. Prints one line per request:
        received "foo" → sent "bar" (socket.json#0).
        """

    static let cert = """
        OVERVIEW: Show or renew the local development CA and this machine's server certificate.

        USAGE: stubserver cert [--renew] [--new-authority] [--dir <directory>]

        OPTIONS:
          --renew                 Make a new server certificate now (same CA).
          --new-authority         Make a new CA and certificate (clients must trust the new CA).
          --dir <directory>       Where the files are (default: $XDG_CONFIG_HOME/rehearsal/certificates
                                  or ~/.config/rehearsal/certificates on Linux, ~/Library/Application
                                  Support/Rehearsal/certificates on macOS).
          -h, --help              Show help information.

        'stubserver start --https' without --certificate uses these files; they are made on first use.
        The certificate is for localhost, 127.0.0.1, ::1 and this machine's host name, lasts 397 days
        and is made again when it expires within 30 days or the host name changes. Keys are 0600.
        Prints the files and how to trust the CA (curl, iOS Simulator, macOS keychain, devices, Linux).
        """
}
