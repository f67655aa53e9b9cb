#!/usr/bin/env python3
"""`/healthz` latency on fresh connections while 20,000 idle TCP connections hold the HTTP port.

    cargo build --release && target/release/turnier serve     # in another terminal
    python3 benches/idle_connections.py [http://127.0.0.1:8080] [idle connections] [probes]

Opens `idle` connections (20,000 by default) to the gateway that never send a byte, spread
over worker processes so that each stays under its own limit on open files (raised here to
the hard limit), and keeps that many open while the server closes some (it closes connections
over its cap after 1 s and the others after the header-read timeout: a worker opens a new one
for each closed). Once all are open, it times `probes` (50 by default) `GET /healthz` on fresh
connections, from connect to the last byte, and prints JSON: median, p90 and max in
milliseconds, failed probes, and how many idle connections were open when probing began and
ended. Loopback only; bounded by the counts and by a 120 s deadline. Standard library only.
"""

import http.client
import json
import multiprocessing
import resource
import selectors
import socket
import statistics
import sys
import time
import urllib.parse

DEADLINE_SECS = 120
PER_WORKER = 5_000


def raise_open_files():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def connect(host, port):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(10)
    try:
        sock.connect((host, port))
    except OSError:
        sock.close()
        return None
    sock.setblocking(False)
    return sock


def hold(host, port, count, opened, open_now, stop):
    """Opens `count` idle connections, reports it through `opened`, and keeps `count` open
    (replacing each the server closes) until `stop` is set; `open_now` is its live count."""
    raise_open_files()
    selector = selectors.DefaultSelector()
    live = 0
    deadline = time.monotonic() + DEADLINE_SECS
    while live < count and time.monotonic() < deadline:
        sock = connect(host, port)
        if sock is not None:
            selector.register(sock, selectors.EVENT_READ)
            live += 1
    open_now.value = live
    opened.release()
    while not stop.is_set() and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.05):
            sock = key.fileobj
            try:
                data = sock.recv(1024)
            except OSError:
                data = b""
            if not data:
                selector.unregister(sock)
                sock.close()
                live -= 1
        while live < count and not stop.is_set():
            sock = connect(host, port)
            if sock is None:
                break
            selector.register(sock, selectors.EVENT_READ)
            live += 1
        open_now.value = live
    for key in list(selector.get_map().values()):
        key.fileobj.close()


def probe(host, port):
    """Milliseconds for one `GET /healthz` on a fresh connection, or None if it failed."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection(host, port, timeout=30)
    try:
        conn.request("GET", "/healthz")
        response = conn.getresponse()
        response.read()
        if response.status != 200:
            return None
    except OSError:
        return None
    finally:
        conn.close()
    return (time.perf_counter() - started) * 1000


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    idle = int(sys.argv[2]) if len(sys.argv) > 2 else 20_000
    probes = int(sys.argv[3]) if len(sys.argv) > 3 else 50
    url = urllib.parse.urlparse(base)
    host, port = url.hostname, url.port or 80
    if not socket.getaddrinfo(host, port)[0][4][0].startswith("127."):
        sys.exit("loopback only: give an http://127.x.x.x:port address")
    if probe(host, port) is None:
        sys.exit(f"{base}/healthz does not answer 200")

    workers = max(1, -(-idle // PER_WORKER))
    opened = multiprocessing.Semaphore(0)
    stop = multiprocessing.Event()
    counts = [multiprocessing.Value("i", 0) for _ in range(workers)]
    shares = [idle // workers + (1 if i < idle % workers else 0) for i in range(workers)]
    processes = [
        multiprocessing.Process(target=hold, args=(host, port, share, opened, count, stop))
        for share, count in zip(shares, counts)
    ]
    started = time.monotonic()
    for process in processes:
        process.start()
    for _ in processes:
        opened.acquire(timeout=DEADLINE_SECS)
    open_secs = time.monotonic() - started
    open_at_start = sum(count.value for count in counts)

    times, failed = [], 0
    for _ in range(probes):
        took = probe(host, port)
        if took is None:
            failed += 1
        else:
            times.append(took)
        time.sleep(0.1)
    open_at_end = sum(count.value for count in counts)
    stop.set()
    for process in processes:
        process.join(timeout=30)

    times.sort()
    print(json.dumps({
        "idle_connections_asked": idle,
        "idle_open_when_probing_began": open_at_start,
        "idle_open_when_probing_ended": open_at_end,
        "seconds_to_open": round(open_secs, 1),
        "probes": probes,
        "failed": failed,
        "median_ms": round(statistics.median(times), 2) if times else None,
        "p90_ms": round(times[int(0.9 * (len(times) - 1))], 2) if times else None,
        "max_ms": round(times[-1], 2) if times else None,
    }, indent=2))


if __name__ == "__main__":
    main()
