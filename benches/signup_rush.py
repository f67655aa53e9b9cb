#!/usr/bin/env python3
"""A sign-up rush against a release all-in-one: RSS of the process before, at its peak and after.

Starts `turnier serve` (the release binary) on a fresh state folder and free loopback ports, with
the limits that would refuse a rush from one address turned off, waits until it answers, then makes
N sign-ups, C at a time, through the HTTP API, sampling the process's resident memory every 50 ms.
Prints RSS at rest, the peak during the rush, and 5 s after it (the issue's figure: RSS after 500
concurrent sign-ups). Loopback only; bounded in count and time; the server is stopped at the end.

    cargo build --release
    python3 benches/signup_rush.py [N=500] [C=8] [BINARY=target/release/turnier]
"""

import concurrent.futures
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def post(url, body):
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers={"content-type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code


def main():
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    at_once = int(sys.argv[2]) if len(sys.argv) > 2 else 8
    default_binary = os.path.join(
        os.environ.get("CARGO_TARGET_DIR", "target"), "release", "turnier"
    )
    binary = sys.argv[3] if len(sys.argv) > 3 else default_binary
    state = tempfile.mkdtemp(prefix="signup-rush-")
    http, grpc = free_port(), free_port()
    # An empty card data folder: the sample catalog only, nothing to import.
    os.makedirs(os.path.join(state, "no-data"))
    env = dict(
        os.environ,
        TURNIER_HTTP_ADDR=f"127.0.0.1:{http}",
        TURNIER_GRPC_ADDR=f"127.0.0.1:{grpc}",
        TURNIER_STATE_DIR=state,
        TURNIER_DATA_DIR=os.path.join(state, "no-data"),
        TURNIER_RATE_LIMIT_PER_SECOND="0",
        TURNIER_SIGN_UPS_PER_ADDRESS="0",
        RUST_LOG="warn",
    )
    server = subprocess.Popen([binary, "serve"], env=env, cwd=state,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        base = f"http://127.0.0.1:{http}"
        deadline = time.time() + 120
        while time.time() < deadline:
            try:
                with urllib.request.urlopen(f"{base}/readyz", timeout=2) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError):
                pass
            time.sleep(0.2)
        time.sleep(2)
        rest = rss_mib(server.pid)
        peak = [rest]
        sampling = threading.Event()

        def sample():
            while not sampling.is_set():
                peak[0] = max(peak[0], rss_mib(server.pid))
                time.sleep(0.05)

        sampler = threading.Thread(target=sample)
        sampler.start()
        started = time.time()
        with concurrent.futures.ThreadPoolExecutor(at_once) as pool:
            statuses = list(pool.map(
                lambda n: post(f"{base}/api/v1/accounts",
                               {"username": f"rush-{n}", "password": "correct horse battery"}),
                range(count)))
        took = time.time() - started
        sampling.set()
        sampler.join()
        time.sleep(5)
        after = rss_mib(server.pid)
        made = sum(1 for status in statuses if status == 201)
        print(f"{made}/{count} sign-ups ({at_once} at a time) in {took:.1f} s; "
              f"RSS at rest {rest:.0f} MiB, peak {peak[0]:.0f} MiB, 5 s after {after:.0f} MiB")
    finally:
        server.terminate()
        server.wait(timeout=60)


if __name__ == "__main__":
    main()
