#!/usr/bin/env python3
"""`make bench-hardening`: the stub server under the abuse issue 15 describes, on 127.0.0.1.

1. 200 clients request a 20 MB file and never read: the server's RSS stays under its memory
   budget (--max-memory, default 256 MiB) and a normal request is still answered fast
   (median and p90 of 50 requests on fresh connections).
2. 4,096 keep-alive clients hold every connection slot: a new client is still served
   (time from connect to response, median and worst of 10).
3. A flood of silent connections to the shutdown port: SIGTERM still exits promptly.

Absolute numbers depend on the machine; on a loaded one re-run when it is quiet.
Knobs: BENCH_STUBSERVER (binary), BENCH_FILE_MB (20), BENCH_READERS (200), BENCH_HOLDERS (4096).
"""
import os, re, resource, signal, socket, statistics, subprocess, sys, tempfile, threading, time

BINARY = os.path.abspath(os.environ.get("BENCH_STUBSERVER", ".build/release/stubserver"))
FILE_MB = int(os.environ.get("BENCH_FILE_MB", "20"))
READERS = int(os.environ.get("BENCH_READERS", "200"))
HOLDERS = int(os.environ.get("BENCH_HOLDERS", "4096"))
BUDGET_MB = 256
failures = []


def raise_fd_limit(wanted):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(hard, wanted) if hard != resource.RLIM_INFINITY else wanted
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


class Server:
    def __init__(self, workdir, config, extra=()):
        self.process = subprocess.Popen(
            [BINARY, "start", "-p", "0", "-c", config, "-q", *extra], cwd=workdir,
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.port = self.shutdown_port = None
        while self.port is None or self.shutdown_port is None:
            line = self.process.stdout.readline()
            if not line:
                raise SystemExit("stubserver exited before it started")
            if m := re.match(r"Server is started at (\d+)", line):
                self.port = int(m.group(1))
            if m := re.match(r"Shutdown port is (\d+)", line):
                self.shutdown_port = int(m.group(1))
        threading.Thread(target=lambda: [None for _ in self.process.stdout], daemon=True).start()

    def rss_mb(self, field="VmRSS"):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def get(port, path="/small", keep=False, timeout=10):
    """One GET; returns (seconds, status, socket-if-kept)."""
    started = time.perf_counter()
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    close = "" if keep else "Connection: close\r\n"
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: bench\r\n{close}\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1)) if b"Content-Length" in head else 0
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    elapsed = time.perf_counter() - started
    status = int(head.split(b" ")[1]) if head.startswith(b"HTTP/") else 0
    if not keep:
        sock.close()
        sock = None
    return elapsed, status, sock


def ms(seconds):
    return f"{seconds * 1000:.2f} ms"


def non_reading_clients(workdir):
    print(f"== {READERS} clients of a {FILE_MB} MB file that never read (budget {BUDGET_MB} MiB)")
    server = Server(workdir, "stubs.json")
    try:
        get(server.port)
        baseline = server.rss_mb()
        readers = []
        for _ in range(READERS):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", server.port))
            sock.sendall(b"GET /big HTTP/1.1\r\nHost: bench\r\n\r\n")
            readers.append(sock)
        time.sleep(3)
        rss, peak = server.rss_mb(), server.rss_mb("VmHWM")
        times = sorted(get(server.port)[0] for _ in range(50))
        median, p90 = statistics.median(times), times[int(len(times) * 0.9)]
        print(f"  RSS {baseline:.1f} MB before, {rss:.1f} MB with {READERS} stalled readers (peak {peak:.1f} MB)")
        print(f"  a normal request meanwhile: median {ms(median)}, p90 {ms(p90)}")
        if peak >= BUDGET_MB:
            failures.append(f"peak RSS {peak:.1f} MB is over the {BUDGET_MB} MiB budget")
        if median >= 0.010:
            failures.append(f"normal request median {ms(median)} is not under 10 ms")
        for sock in readers:
            sock.close()
    finally:
        server.stop()


def keep_alive_holders(workdir):
    print(f"== {HOLDERS} keep-alive holders at the connection cap, then new clients")
    limit = raise_fd_limit(HOLDERS + 512)
    if limit < HOLDERS + 64:
        print(f"  skipped: RLIMIT_NOFILE is {limit}, need {HOLDERS + 64}")
        return
    server = Server(workdir, "stubs.json")
    try:
        holders = []
        for index in range(HOLDERS):
            try:
                _, status, sock = get(server.port, keep=True)
                holders.append(sock)
            except OSError as error:
                print(f"  holder {index}: {error}")
                break
        time.sleep(0.5)
        times = []
        for _ in range(10):
            try:
                elapsed, status, _ = get(server.port, timeout=5)
                if status != 200:
                    print(f"  new client got status {status}")
                times.append(elapsed if status == 200 else float("inf"))
            except OSError as error:
                print(f"  new client failed: {error}")
                times.append(float("inf"))
        print(f"  {len(holders)} holders; a new client is served in median {ms(statistics.median(times))}, worst {ms(max(times))}")
        if max(times) >= 1.0:
            failures.append(f"a new client waited {max(times):.3f} s with {len(holders)} holders")
        for sock in holders:
            sock.close()
    finally:
        server.stop()


def shutdown_port_flood(workdir):
    print("== SIGTERM under a shutdown-port flood")
    server = Server(workdir, "stubs.json")
    try:
        flood_and_signal(server)
    finally:
        server.stop()


def flood_and_signal(server):
    stop = threading.Event()
    flood = []

    def keep_flooding():
        while not stop.is_set():
            try:
                flood.append(socket.create_connection(("127.0.0.1", server.shutdown_port), timeout=5))
                if len(flood) > 2000:
                    flood.pop(0).close()
            except OSError:
                time.sleep(0.001)

    for _ in range(500):
        try:
            flood.append(socket.create_connection(("127.0.0.1", server.shutdown_port), timeout=5))
        except OSError:
            pass  # a connection the full backlog dropped: the flood goes on regardless
    threads = [threading.Thread(target=keep_flooding, daemon=True) for _ in range(4)]
    for thread in threads:
        thread.start()
    time.sleep(1)
    started = time.perf_counter()
    server.process.send_signal(signal.SIGTERM)
    try:
        server.process.wait(timeout=60)
        elapsed = time.perf_counter() - started
    except subprocess.TimeoutExpired:
        elapsed = float("inf")
        server.process.kill()
    stop.set()
    print(f"  {len(flood)} silent connections open; exited {elapsed:.3f} s after SIGTERM (status {server.process.returncode})")
    if elapsed >= 3:
        failures.append(f"SIGTERM took {elapsed:.3f} s under a shutdown-port flood")
    for sock in flood:
        sock.close()


def main():
    raise_fd_limit(HOLDERS + 512)
    with tempfile.TemporaryDirectory(prefix="stubserver-hardening.") as workdir:
        with open(os.path.join(workdir, "big.bin"), "wb") as big:
            big.write(os.urandom(1 << 20) * FILE_MB)
        with open(os.path.join(workdir, "stubs.json"), "w") as config:
            config.write('[{"request": {"uri": "/big"}, "response": {"file": "big.bin"}},'
                         ' {"request": {"uri": "/small"}, "response": {"text": "ok"}}]')
        non_reading_clients(workdir)
        keep_alive_holders(workdir)
        shutdown_port_flood(workdir)
    if failures:
        print("FAILED:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("all hardening bounds held")


if __name__ == "__main__":
    main()
