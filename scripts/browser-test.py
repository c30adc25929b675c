#!/usr/bin/env python3
"""Drives the stubserver dashboard and the spec report in headless chromium over the DevTools protocol.

Dashboard: starts `stubserver` on a free port with the issue's newcomer stubs, opens /__admin/ui,
and checks what a person would: a request shows within 1 s of being sent (server-sent events, no
polling), an unmatched one shows its three closest stubs with their differences, the stub list
counts the hit, a broken hot edit shows its errors. The server checks an OpenAPI document
(`--openapi`): a request that breaks it shows its violations (as text), counted and filterable.

Report: runs the sample's specs (Specs/) with the built test binary into .build/browser/specs-report
and the report gallery fixture (a receipt screen with one deliberately changed cell, in a scratch
folder) into .build/browser/gallery-report, opens each report.html from file:// and checks that the
page loads under its Content-Security-Policy, that the status and tag filters change the visible
scenarios, and that the gallery shows the failing cell with its diff.

Writes screenshots to .build/browser/. Standard library only (a small WebSocket client for CDP).
Exit 1 on any failed check.

    python3 scripts/browser-test.py [--stubserver PATH] [--chromium PATH] [--swift SWIFT] [--only dashboard|report]
"""
import argparse, base64, json, os, re, shutil, socket, struct, subprocess, sys, tempfile, time, urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, ".build", "browser")

STUBS = [
    {"description": "octocat's own repositories",
     "request": {"method": "GET", "uri": "/users/octocat/repos", "queries": {"type": "owner"},
                 "headers": {"Accept": "application/vnd.github+json"}},
     "response": {"json": [{"name": "Hello-World"}]}},
    {"request": {"method": "GET", "uri": "/users/nobody/repos"}, "response": {"json": []}},
    {"request": {"method": "POST", "uri": "/users/octocat/repos"}, "response": {"status": 201, "text": "created"}},
    {"request": {"uri": "/cart", "method": "POST"}, "response": {"text": "added"},
     "scenario": {"name": "checkout", "requires": "Started", "next": "Filled"}},
]
OTHER = [{"description": "health check", "request": {"uri": "/health"}, "response": {"text": "ok"}}]
# The API the stubs stand for: the server checks every exchange against it (start --openapi).
OPENAPI = {
    "openapi": "3.0.3", "info": {"title": "repos", "version": "1"},
    "paths": {
        "/users/{user}/repos": {
            "parameters": [{"name": "user", "in": "path", "required": True, "schema": {"type": "string"}}],
            "get": {"parameters": [{"name": "type", "in": "query", "schema": {"type": "string", "enum": ["all", "owner", "member"]}}],
                    "responses": {"200": {"description": "repos", "content": {"application/json": {"schema": {
                        "type": "array", "items": {"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}}}}}}}}},
            "post": {"responses": {"201": {"description": "made", "content": {"text/plain": {"schema": {"type": "string"}}}}}}},
        "/cart": {"post": {"responses": {"200": {"description": "added", "content": {"text/plain": {"schema": {"type": "string"}}}}}}},
        "/health": {"get": {"responses": {"200": {"description": "up", "content": {"text/plain": {"schema": {"type": "string"}}}}}}},
    },
}

failures = []


def check(condition, message):
    print(("  ok   " if condition else "  FAIL ") + message)
    if not condition:
        failures.append(message)


class CDP:
    """A minimal WebSocket (RFC 6455) client speaking the Chrome DevTools protocol."""

    def __init__(self, url):
        match = re.match(r"ws://([^/:]+):(\d+)(/.*)", url)
        self.sock = socket.create_connection((match.group(1), int(match.group(2))), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {match.group(3)} HTTP/1.1\r\nHost: {match.group(1)}:{match.group(2)}\r\n"
                           f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise RuntimeError("DevTools closed the connection during the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise RuntimeError("DevTools refused the websocket: " + head.decode(errors="replace"))
        self.next_id = 0
        self.events = []

    def _read_exactly(self, count):
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise RuntimeError("DevTools closed the connection")
            data += chunk
        return data

    def _receive(self):
        message = b""
        while True:
            first, second = self._read_exactly(2)
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self._read_exactly(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self._read_exactly(8))[0]
            payload = self._read_exactly(length)
            opcode = first & 0x0F
            if opcode == 0x9:  # ping
                self._send(payload, opcode=0xA)
                continue
            if opcode == 0x8:
                raise RuntimeError("DevTools closed the websocket")
            message += payload
            if first & 0x80:
                return json.loads(message)

    def _send(self, data, opcode=0x1):
        mask = os.urandom(4)
        header = bytes([0x80 | opcode])
        if len(data) < 126:
            header += bytes([0x80 | len(data)])
        elif len(data) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(data))
        self.sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def call(self, method, **params):
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}).encode())
        while True:
            message = self._receive()
            if message.get("id") == self.next_id:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.events.append(message)

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout):
        """Polls `expression` every 5 ms; returns (value, seconds waited) or (None, timeout)."""
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            value = self.evaluate(expression)
            if value:
                return value, time.monotonic() - start
            time.sleep(0.005)
        return None, timeout

    def screenshot(self, name, whole_page=True):
        os.makedirs(OUT, exist_ok=True)
        data = self.call("Page.captureScreenshot", format="png", captureBeyondViewport=whole_page)["data"]
        path = os.path.join(OUT, name)
        with open(path, "wb") as file:
            file.write(base64.b64decode(data))
        return path


def http(port, method, path, headers=None, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method, data=body, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def find_chromium(given):
    for candidate in [given, os.environ.get("CHROMIUM"), "chromium", "chromium-browser", "google-chrome"]:
        if candidate and shutil.which(candidate):
            return shutil.which(candidate)
    sys.exit("no chromium found: run `bash scripts/browser-deps.sh` (make test-browser does)")


def start_stubserver(binary, config, extra=()):
    process = subprocess.Popen([binary, "start", "-p", "0", "-c", os.path.basename(config), *extra], cwd=os.path.dirname(config),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        found = re.match(r"Server is started at (\d+)", line)
        if found:
            return process, int(found.group(1))
    process.kill()
    sys.exit("stubserver did not start")


def start_chromium(binary, profile):
    process = subprocess.Popen(
        [binary, "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
         "--no-default-browser-check", "--disable-extensions", "--hide-scrollbars", "--remote-debugging-port=0",
         f"--user-data-dir={profile}", "--window-size=1280,900", "--force-device-scale-factor=1", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        found = re.search(r"DevTools listening on ws://127\.0\.0\.1:(\d+)/", line or "")
        if found:
            return process, int(found.group(1))
        if not line and process.poll() is not None:
            break
    process.kill()
    sys.exit("chromium did not start its DevTools endpoint")


def contract_checks(cdp, port):
    """Requests that break the OpenAPI document: marked with their violations, counted, filterable, escaped."""
    label, _ = cdp.wait_for("!document.getElementById('contract-filter').hidden", 3)
    check(bool(label), "a server checking a document offers the contract-violations filter")
    clean = cdp.evaluate("document.querySelectorAll('.request.violates').length")
    check(clean == 0, f"requests that meet the document are not marked ({clean} marked)")
    status, _ = http(port, "GET", "/users/nobody/repos?type=everyone")
    shown, _ = cdp.wait_for("""(() => {
        const row = [...document.querySelectorAll('.request.violates')].find(r => r.querySelector('.target').textContent.includes('type=everyone'));
        return row && {badge: row.querySelector('.contract').textContent,
                       violations: [...row.querySelectorAll('.violation')].map(v => v.textContent)};
    })()""", 3)
    check(status == 200 and bool(shown) and shown["badge"] == "✗ contract 1",
          f"a request off the document is marked with its count ({shown['badge'] if shown else None!r})")
    check(bool(shown) and shown["violations"][0].startswith("request query.type: ") and "everyone" in shown["violations"][0],
          f"its violation is listed ({shown['violations'] if shown else None})")
    # A hostile value lands in a violation message: it must show as text, never as markup.
    hostile = urllib.request.quote("<img src=x onerror=document.title='owned'>")
    http(port, "GET", f"/users/nobody/repos?type={hostile}")
    text, _ = cdp.wait_for("""[...document.querySelectorAll('.violation')].map(v => v.textContent).find(t => t.includes('onerror'))""", 3)
    injected = cdp.evaluate("document.querySelectorAll('.request img').length + (document.title === 'owned' ? 1 : 0)")
    check(bool(text) and "<img src=x" in text and injected == 0, f"a violation message is shown as text ({(text or '')[:70]!r})")
    count = cdp.evaluate("document.getElementById('violation-count').textContent")
    check(count == "2", f"the header counts the requests with violations ({count!r})")
    cdp.evaluate("document.getElementById('only-violations').click()")
    visible = cdp.evaluate("[...document.querySelectorAll('.request')].filter(r => !r.hidden).map(r => r.classList.contains('violates'))")
    check(visible == [True, True], f"'only contract violations' shows just those ({visible})")
    cdp.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
    time.sleep(1.3)
    shot = cdp.screenshot("dashboard-contract.png")
    print(f"  screenshot: {os.path.relpath(shot, ROOT)}")
    cdp.evaluate("document.getElementById('only-violations').click()")
    visible = cdp.evaluate("[...document.querySelectorAll('.request')].filter(r => r.hidden).length")
    check(visible == 0, "unchecking it shows every request again")


def dashboard_test(args):
    work = tempfile.mkdtemp(prefix="dashboard-test-")
    config = os.path.join(work, "stubs.json")
    with open(config, "w") as file:
        json.dump([{"include": "github.json"}, {"include": "health.json"}], file)
    with open(os.path.join(work, "github.json"), "w") as file:
        json.dump(STUBS, file, indent=2)
    with open(os.path.join(work, "health.json"), "w") as file:
        json.dump(OTHER, file, indent=2)
    with open(os.path.join(work, "openapi.json"), "w") as file:
        json.dump(OPENAPI, file, indent=2)

    server, port = start_stubserver(os.path.abspath(args.stubserver), config, ["--openapi", "openapi.json"])
    browser, devtools = start_chromium(find_chromium(args.chromium), os.path.join(work, "profile"))
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{devtools}/json/list", timeout=10) as response:
            page = next(target for target in json.load(response) if target["type"] == "page")
        cdp = CDP(page["webSocketDebuggerUrl"])
        cdp.call("Page.enable")
        cdp.call("Runtime.enable")
        print(f"dashboard at http://127.0.0.1:{port}/__admin/ui (chromium DevTools on {devtools})")
        cdp.call("Page.navigate", url=f"http://127.0.0.1:{port}/__admin/ui")
        live, waited = cdp.wait_for("document.getElementById('connection')?.dataset.state === 'live'", 10)
        check(bool(live), f"the page connects to the live feed ({waited:.2f} s)")
        stubs, _ = cdp.wait_for("document.querySelectorAll('.stub').length", 5)
        check(stubs == len(STUBS) + len(OTHER), f"the stub list shows every stub ({stubs} of {len(STUBS) + len(OTHER)})")
        files = cdp.evaluate("[...document.querySelectorAll('.file-name')].map(e => e.textContent)")
        check(files == ["github.json", "health.json"],
              f"stubs are grouped by file: {files}")
        scenario = cdp.evaluate("document.getElementById('scenarios').textContent")
        check(scenario == "checkoutStarted", f"scenarios show their state: {scenario!r}")

        # A matched request: on screen within 1 s of being sent, with the stub that answered.
        sent = time.monotonic()
        status, _ = http(port, "GET", "/users/nobody/repos")
        row, _ = cdp.wait_for("[...document.querySelectorAll('.request')].find(r => r.querySelector('.target').textContent === '/users/nobody/repos')?.querySelector('.answer').textContent", 3)
        shown = time.monotonic() - sent
        check(status == 200 and row == "→ github.json#1", f"a matched request shows with its stub ({row!r})")
        check(shown < 1.0, f"it shows within 1 s of being sent ({shown * 1000:.0f} ms)")
        hits, _ = cdp.wait_for("[...document.querySelectorAll('.stub')][1]?.querySelector('.hits').textContent === '1 hit'", 2)
        check(bool(hits), "the stub that answered counts one hit")

        # The newcomer's unmatched request: the three closest stubs, the right one first.
        sent = time.monotonic()
        status, _ = http(port, "GET", "/users/octocat/repos")
        misses, _ = cdp.wait_for("""(() => {
            const row = [...document.querySelectorAll('.request.unmatched')].find(r => r.querySelector('.target').textContent === '/users/octocat/repos');
            return row && [...row.querySelectorAll('.near-miss')].map(m => ({stub: m.querySelector('b').textContent,
                differences: [...m.querySelectorAll('.difference')].map(d => d.textContent)}));
        })()""", 3)
        shown = time.monotonic() - sent
        stubs_named = [miss["stub"] for miss in misses or []]
        check(status == 400 and len(stubs_named) == 3, f"an unmatched request shows three near misses ({stubs_named})")
        check(stubs_named == ["github.json#0", "github.json#2", "github.json#1"],
              "closest first: the stub of that path (#0), the same path with another method (#2), another path (#1)")
        check(bool(misses) and any("queries.type" in d for d in misses[0]["differences"]),
              f"each near miss lists its differences ({misses[0]['differences'] if misses else None})")
        check(shown < 1.0, f"it shows within 1 s ({shown * 1000:.0f} ms)")
        cdp.call("Emulation.setDeviceMetricsOverride", width=1280, height=900, deviceScaleFactor=1, mobile=False)
        for path in ["/health", "/users/octocat/repos?type=owner"]:
            http(port, "GET", path)
        http(port, "GET", "/users/octocat/repos?type=owner", headers={"Accept": "application/vnd.github+json"})
        http(port, "POST", "/cart", body=b"")
        cdp.wait_for("document.querySelectorAll('.request').length >= 6", 3)
        state, _ = cdp.wait_for("document.getElementById('scenarios').textContent === 'checkoutFilled'", 3)
        check(bool(state), "a scenario's new state shows after the request that moved it")
        contract_checks(cdp, port)
        time.sleep(1.3)  # the new rows' highlight fades
        shot = cdp.screenshot("dashboard.png")
        print(f"  screenshot: {os.path.relpath(shot, ROOT)}")

        # A broken hot edit: the banner shows the problem; the fix clears it.
        with open(os.path.join(work, "health.json"), "w") as file:
            file.write('[{"request": {"uri": "/health", "metod": "GET"}, "response": {"text": "ok"}}]')
        banner, waited = cdp.wait_for("!document.getElementById('reload-error').hidden && document.getElementById('reload-problems').textContent", 10)
        check(bool(banner) and "metod" in banner, f"a broken edit shows its error ({(banner or '').strip()[:90]!r})")
        shot = cdp.screenshot("dashboard-reload-error.png")
        print(f"  screenshot: {os.path.relpath(shot, ROOT)}")
        with open(os.path.join(work, "health.json"), "w") as file:
            json.dump(OTHER, file)
        cleared, _ = cdp.wait_for("document.getElementById('reload-error').hidden", 10)
        check(bool(cleared), "fixing the edit clears the error")
    finally:
        browser.terminate()
        server.terminate()
        for process in (browser, server):
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stubserver", default=os.path.join(ROOT, ".build", "debug", "stubserver"))
    parser.add_argument("--chromium")
    parser.add_argument("--swift", default=os.environ.get("SWIFT", "swift"), help="runs the built tests that write the reports")
    parser.add_argument("--only", choices=["dashboard", "report"])
    args = parser.parse_args()
    if args.only != "report":
        dashboard_test(args)
    if args.only != "dashboard":
        import report_browser_test
        report_browser_test.run(args, CDP, check, find_chromium, start_chromium)
    if failures:
        print(f"browser test: {len(failures)} check(s) failed")
        sys.exit(1)
    print("browser test: all checks passed")


if __name__ == "__main__":
    main()
