#!/usr/bin/env python3
"""A load run of deck submission through the gateway of a running platform.

    TURNIER_RATE_LIMIT_PER_SECOND=0 cargo run --release     # in another terminal
    python3 benches/lineup_load.py [http://127.0.0.1:8080] [lineups]

Builds three Legends of Runeterra decks from the real card data (`TURNIER_SHARED_DIR`, else
`../shared`, `data/lor/`): 40 Standard-legal cards of two regions each, a different pair and
champion per deck, so the game's default rules accept the lineup (`lor-standard` on every card,
`lor-riot-constructed` on every deck, `lor-riot-lock` on the three). Signs up an organizer,
creates a LoR tournament asking for three decks, adds `lineups` guests (1,000 by default), then
submits every guest's lineup at once (the organizer submits for guests: run the platform with
`TURNIER_RATE_LIMIT_PER_SECOND=0`, since one account makes all the calls) from 32 connections,
and waits until none is pending.

Prints JSON: lineups per second from the first submission to the last verdict, and the
submission-to-verdict latency (the service's `submitTime` to `checkTime`) p50/p90/p99/max.
Every lineup must be accepted: a rejected or failed one stops the run with its issues.
Standard library only.
"""

import concurrent.futures
import datetime
import glob
import http.client
import json
import os
import statistics
import sys
import threading
import time
import urllib.parse

STANDARD = "client_Formats_Standard_name"
# A different pair of regions per deck (Riot lock: no pair twice, no champion twice).
PAIRS = [("Ionia", "Demacia"), ("Noxus", "Freljord"), ("ShadowIsles", "PiltoverZaun")]


class Api:
    def __init__(self, base, token=None):
        url = urllib.parse.urlparse(base)
        self.host, self.port = url.hostname, url.port or 80
        self.token = token
        self.conn = http.client.HTTPConnection(self.host, self.port, timeout=120)

    def call(self, method, path, body=None, expect=None):
        headers = {"content-type": "application/json"}
        if self.token:
            headers["authorization"] = f"Bearer {self.token}"
        data = None if body is None else json.dumps(body)
        self.conn.request(method, "/api/v1" + path, body=data, headers=headers)
        response = self.conn.getresponse()
        text = response.read()
        if response.status >= 400 or (expect and response.status != expect):
            raise RuntimeError(f"{method} {path}: {response.status} {text[:300]!r}")
        return json.loads(text) if text else None


def shared_dir():
    here = os.path.dirname(os.path.abspath(__file__))
    return os.environ.get("TURNIER_SHARED_DIR") or os.path.join(here, "..", "..", "shared")


def decks():
    """Three decks as [{"ref", "count"}]: per region pair, one champion ×3, then 12 more
    cards of the first region and the second, alternating, ×3 (the last ×1): 40 cards."""
    cards = []
    for path in sorted(glob.glob(os.path.join(shared_dir(), "data", "lor", "set*-en_us.json"))):
        with open(path, encoding="utf-8") as file:
            cards += json.load(file)
    if not cards:
        sys.exit(f"no LoR card data under {shared_dir()}/data/lor (set TURNIER_SHARED_DIR)")
    usable = [
        card for card in cards
        if card.get("collectible") and STANDARD in card.get("formatRefs", [])
        and len(card.get("regionRefs", [])) == 1
    ]
    usable.sort(key=lambda card: card["cardCode"])

    def of(region, champion):
        return [
            card["cardCode"] for card in usable
            if card["regionRefs"] == [region] and (card["rarityRef"] == "Champion") == champion
        ]

    lineup = []
    for first, second in PAIRS:
        picks = [of(first, True)[0]]
        firsts, seconds = of(first, False), of(second, False)
        for n in range(13):
            picks.append((firsts if n % 2 == 0 else seconds)[n // 2])
        counts = [3] * 13 + [1]
        lineup.append([{"ref": ref, "count": count} for ref, count in zip(picks, counts)])
    return lineup


def instant(text):
    return datetime.datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def percentile(values, share):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    name = f"lineups-{int(time.time())}"
    token = Api(base).call(
        "POST", "/accounts", {"username": name, "password": "correct horse battery"}
    )["token"]
    api = Api(base, token)
    codes = [
        api.call("POST", "/lor/decks:export", {"format": "lor-code", "cards": deck})["text"]
        for deck in decks()
    ]
    tournament = api.call("POST", "/lor/tournaments", {
        "name": "Lineup load run",
        "stages": [{"format": "swiss", "settings": {"rounds": 9}}],
    })["tournament"]
    tid = tournament["id"]
    api.call("PATCH", f"/tournaments/{tid}", {"deckSettings": {"decksToBring": 3}})
    registrations = [
        api.call("POST", f"/tournaments/{tid}/registrations", {"displayName": f"Guest {n}"})
        ["registration"]["id"]
        for n in range(count)
    ]

    local = threading.local()

    def submit(registration):
        if not hasattr(local, "api"):
            local.api = Api(base, token)
        local.api.call(
            "PUT", f"/tournaments/{tid}/registrations/{registration}/lineup",
            {"decks": codes}, expect=202,
        )

    started = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=32) as pool:
        list(pool.map(submit, registrations))
    submitted = time.time()

    while True:
        lineups = api.call("GET", f"/tournaments/{tid}/lineups")["lineups"]
        pending = sum(1 for lineup in lineups if lineup["state"] == "pending")
        if len(lineups) == count and pending == 0:
            break
        if time.time() - started > 600:
            sys.exit(f"{pending} of {count} lineups still pending after 10 minutes")
        time.sleep(0.1)
    finished = time.time()

    bad = [lineup for lineup in lineups if lineup["state"] != "accepted"]
    if bad:
        sys.exit(f"{len(bad)} lineups not accepted, e.g. {json.dumps(bad[0])[:600]}")
    submits = [instant(lineup["submitTime"]) for lineup in lineups]
    checks = [instant(lineup["checkTime"]) for lineup in lineups]
    latencies = [(check - submit) * 1000.0 for submit, check in zip(submits, checks)]
    print(json.dumps({
        "lineups": count,
        "decks_per_lineup": len(codes),
        "submitting_s": round(submitted - started, 2),
        "first_submission_to_last_verdict_s": round(max(checks) - min(submits), 2),
        "lineups_per_s": round(count / (max(checks) - min(submits)), 1),
        "client_wall_s": round(finished - started, 2),
        "verdict_ms": {
            "p50": round(statistics.median(latencies), 1),
            "p90": round(percentile(latencies, 0.90), 1),
            "p99": round(percentile(latencies, 0.99), 1),
            "max": round(max(latencies), 1),
        },
    }, indent=2))


if __name__ == "__main__":
    main()
