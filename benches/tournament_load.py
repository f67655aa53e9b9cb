#!/usr/bin/env python3
"""A load run of the tournaments API through the gateway of a running platform.

    cargo run --release            # in another terminal: the all-in-one on :8080
    python3 benches/tournament_load.py [http://127.0.0.1:8080] [players]

Signs up an organizer, creates a Riftbound Swiss event, adds `players` guests (8,000 by
default), starts it and pairs round 1; reports every result of round 1 from one keep-alive
connection and then from 8 at once (result reports per second); pairs round 2 (the figure for
"pairing a Swiss round of 8,000 registered players"); then, 25 times, reports one result of
round 2 and reads the standings (the figure for "standings after one reported result");
then plays rounds 2 to 4 out and pairs round 5.
Prints each figure's median as JSON. Standard library only.
"""

import http.client
import json
import statistics
import sys
import threading
import time
import urllib.parse


class Api:
    def __init__(self, base, token=None):
        url = urllib.parse.urlparse(base)
        self.host, self.port = url.hostname, url.port or 80
        self.token = token
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)

    def raw(self, method, path, body=None):
        """The answer's bytes, as soon as they have all arrived (not parsed: timing stops
        here, so the client's JSON parsing of a 2 MB table is not counted)."""
        headers = {"content-type": "application/json"}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body)
        self.conn.request(method, "/api/v1" + path, body=data, headers=headers)
        response = self.conn.getresponse()
        text = response.read()
        if response.status >= 400:
            raise RuntimeError(f"{method} {path}: {response.status} {text[:300]!r}")
        return text

    def call(self, method, path, body=None):
        text = self.raw(method, path, body)
        return json.loads(text) if text else None


def timed(function):
    started = time.perf_counter()
    result = function()
    return result, (time.perf_counter() - started) * 1000.0


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    players = int(sys.argv[2]) if len(sys.argv) > 2 else 8000
    name = f"load-{int(time.time())}"
    anonymous = Api(base)
    token = anonymous.call("POST", "/accounts", {"username": name, "password": "correct horse battery"})["token"]
    api = Api(base, token)
    tournament = api.call("POST", "/riftbound/tournaments", {
        "name": "Load run",
        "stages": [{"format": "swiss", "settings": {"rounds": 9}}],
        "seed": 2026,
    })["tournament"]
    tid = tournament["id"]
    _, register_ms = timed(lambda: [
        api.call("POST", f"/tournaments/{tid}/registrations", {"displayName": f"Player {n}"})
        for n in range(players)
    ])
    api.call("POST", f"/tournaments/{tid}:start", {})
    round_one, pair_one_ms = timed(lambda: api.call("POST", f"/tournaments/{tid}/rounds", {})["round"])
    matches = [m["id"] for m in round_one["matches"] if not m.get("bye")]

    # Reports from one connection, then from 8 connections at once.
    half = len(matches) // 2
    _, serial_ms = timed(lambda: [
        api.call("POST", f"/tournaments/{tid}/matches/{m}:report", {"games": [2, 1]})
        for m in matches[:half]
    ])
    rest = matches[half:]
    errors = []

    def worker(chunk):
        own = Api(base, token)
        try:
            for m in chunk:
                own.call("POST", f"/tournaments/{tid}/matches/{m}:report", {"games": [1, 2]})
        except Exception as err:  # noqa: BLE001 - reported below
            errors.append(err)

    def report_at_once(ids):
        chunks = [ids[i::8] for i in range(8)]
        threads = [threading.Thread(target=worker, args=(chunk,)) for chunk in chunks]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
        return (time.perf_counter() - started) * 1000.0

    parallel_ms = report_at_once(rest)

    round_two, pair_two_ms = timed(lambda: api.call("POST", f"/tournaments/{tid}/rounds", {})["round"])
    second = [m["id"] for m in round_two["matches"] if not m.get("bye")]
    report_ms, standings_ms = [], []
    for m in second[:25]:
        _, ms = timed(lambda: api.call("POST", f"/tournaments/{tid}/matches/{m}:report", {"games": [2, 0]}))
        report_ms.append(ms)
        text, ms = timed(lambda: api.raw("GET", f"/tournaments/{tid}/standings"))
        standings_ms.append(ms)
    assert len(json.loads(text)["standings"]) == players
    # Rounds 3 to 5: the pairing of a later round, with score groups spread out.
    report_at_once(second[25:])
    for _ in range(3, 5):
        later = api.call("POST", f"/tournaments/{tid}/rounds", {})["round"]
        report_at_once([m["id"] for m in later["matches"] if not m.get("bye")])
    _, pair_five_ms = timed(lambda: api.call("POST", f"/tournaments/{tid}/rounds", {}))
    print(json.dumps({
        "players": players,
        "register_per_second": round(players / (register_ms / 1000.0)),
        "pair_round_1_ms": round(pair_one_ms, 1),
        "pair_round_2_ms": round(pair_two_ms, 1),
        "pair_round_5_ms": round(pair_five_ms, 1),
        "reports_per_second_one_connection": round(half / (serial_ms / 1000.0)),
        "reports_per_second_8_connections": round(len(rest) / (parallel_ms / 1000.0)),
        "report_median_ms": round(statistics.median(report_ms), 2),
        "standings_after_one_result_median_ms": round(statistics.median(standings_ms), 1),
        "standings_p90_ms": round(sorted(standings_ms)[int(len(standings_ms) * 0.9)], 1),
    }, indent=1))


if __name__ == "__main__":
    main()
