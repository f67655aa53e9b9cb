#!/usr/bin/env python3
"""Page weights and server times of the web frontend, through a running platform.

    TURNIER_RATE_LIMIT_PER_SECOND=0 cargo run --release   # in another terminal, real card data
    python3 benches/web_pages.py [http://127.0.0.1:8080] [calls per page]

(The gateway's rate limit is off: the pages' loads come faster than one client may make them.)
Signs up an account (its session token is the browser's cookie), creates a Pokémon tournament
of 32 guests (Swiss and a top 8, round 1 paired, half its results in) for the tournament
pages, then loads each main page
`calls` times (50 by default) from one keep-alive connection. Prints JSON per page: the HTML's
bytes, the page's whole weight with our stylesheet and script (what a browser fetches before
card images), and the gateway's own p50 / p90 server time for the page's route, read from
`/metrics` (the `turnier_http_request_duration_seconds` histogram the gateway keeps per route,
interpolated in its buckets as Prometheus does: the figures are as fine as the buckets).
Standard library only.
"""

import http.client
import json
import re
import sys
import time
import urllib.parse

RIFT1 = ("RIFT1.OGN:6x042-298,3x043-298,3x045-298,3x064-298,6x166-298,205-298,259-298,"
         "282-298,289-298,293-298.SB.OGN:2x050-298")


def quantile(buckets, share):
    """The `share` quantile of a Prometheus histogram's cumulative buckets, in milliseconds,
    interpolated inside its bucket as Prometheus's `histogram_quantile` does."""
    buckets = sorted(buckets)
    if not buckets or buckets[-1][1] == 0:
        return None
    rank = share * buckets[-1][1]
    lower, below = 0.0, 0.0
    for upper, count in buckets:
        if count >= rank:
            inside = (rank - below) / (count - below) if count > below else 0.0
            return round((lower + (upper - lower) * inside) * 1000, 2)
        lower, below = upper, count
    return None


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8080"
    calls = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    url = urllib.parse.urlparse(base)
    conn = http.client.HTTPConnection(url.hostname, url.port or 80, timeout=60)

    def get(path, cookie=None):
        headers = {"accept": "text/html"}
        if cookie:
            headers["cookie"] = cookie
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        body = response.read()
        if response.status >= 400:
            raise RuntimeError(f"GET {path}: {response.status} {body[:200]!r}")
        return body

    name = f"pages{int(time.time())}"
    conn.request("POST", "/api/v1/accounts", body=json.dumps(
        {"username": name, "password": "correct horse battery"}),
        headers={"content-type": "application/json"})
    token = json.loads(conn.getresponse().read())["token"]
    cookie = f"turnier_session={token}"

    def post(path, body):
        conn.request("POST", path, body=json.dumps(body), headers={
            "content-type": "application/json", "authorization": f"Bearer {token}"})
        response = conn.getresponse()
        answer = json.loads(response.read() or b"{}")
        if response.status >= 300:
            raise RuntimeError(f"POST {path}: {response.status} {answer}")
        return answer

    # A store's evening: 32 players in a Pokémon Swiss with a top 8, round 1 paired and half of
    # its results in.
    event = post("/api/v1/pokemon/tournaments", {
        "name": "Bench cup", "maxParticipants": 32,
        "stages": [{"format": "swiss", "settings": {"rounds": 5}}, {"format": "single_elimination"}],
        "advancement": [{"fromStage": 1, "placements": [1, 8], "action": "advance", "toStage": 2}],
    })["tournament"]["id"]
    for n in range(32):
        post(f"/api/v1/tournaments/{event}/registrations", {"displayName": f"Player {n + 1:02}"})
    post(f"/api/v1/tournaments/{event}:start", {})
    round_one = post(f"/api/v1/tournaments/{event}/rounds", {})["round"]["matches"]
    for played in round_one[: len(round_one) // 2]:
        post(f"/api/v1/tournaments/{event}/matches/{played['id']}:report", {"games": [2, 1]})

    shared = urllib.parse.quote(RIFT1, safe="")
    pages = [
        ("/", "/", None),
        ("/lor/cards?q=zed", "/{game}/cards", None),
        ("/pokemon/cards?q=t%3Awater%20hp%3E%3D120", "/{game}/cards", None),
        ("/lor/cards/01IO009", "/{game}/cards/{reference}", None),
        (f"/riftbound/deck-builder?deck={shared}", "/{game}/deck-builder", cookie),
        (f"/riftbound/decks/{shared}", "/{game}/decks/{code}", None),
        (f"/riftbound/decks/{shared}?calc=riftbound-deck-breakdown", "/{game}/decks/{code}", None),
        ("/settings/calculators?game=riftbound", "/settings/calculators", cookie),
        ("/settings/calculators/edit?game=riftbound", "/settings/calculators/edit", cookie),
        ("/settings/templates?game=riftbound", "/settings/templates", cookie),
        ("/signin", "/signin", None),
        ("/settings/rulesets?game=lor", "/settings/rulesets", cookie),
        ("/settings/tokens", "/settings/tokens", cookie),
        (f"/users/{name}", "/users/{username}", None),
        ("/pokemon/tournaments", "/{game}/tournaments", None),
        ("/pokemon/tournaments/new", "/{game}/tournaments/new", cookie),
        (f"/tournaments/{event}", "/tournaments/{id}", None),
        (f"/tournaments/{event}/pairings", "/tournaments/{id}/pairings", None),
        (f"/tournaments/{event}/standings", "/tournaments/{id}/standings", None),
        (f"/tournaments/{event}/bracket", "/tournaments/{id}/bracket", None),
        (f"/tournaments/{event}/manage", "/tournaments/{id}/manage", cookie),
        (f"/tournaments/{event}/pairings/print?by=name", "/tournaments/{id}/pairings/print", None),
        (f"/tournaments/{event}/standings/print", "/tournaments/{id}/standings/print", None),
    ]
    first = get("/").decode()
    assets = re.findall(r'(?:href|src)="(/assets/[^"]+)"', first)
    asset_bytes = sum(len(get(path)) for path in assets)

    report = {}
    for path, route, page_cookie in pages:
        path = path.replace(" ", "%20")
        size = 0
        for _ in range(calls):
            size = len(get(path, page_cookie))
        report[path] = {"route": route, "html_bytes": size,
                        "with_css_and_js_bytes": size + asset_bytes}
    metrics = get("/metrics").decode()
    for path, entry in report.items():
        buckets = [
            (float(le), float(count)) for le, count in re.findall(
                r'turnier_http_request_duration_seconds_bucket\{method="GET",route="'
                + re.escape(entry["route"]) + r'",le="([0-9.e+-]+)"\} ([0-9.e+-]+)', metrics)
        ]
        for share in (0.5, 0.9):
            entry[f"server_p{int(share * 100)}_ms"] = quantile(buckets, share)
    print(json.dumps({"assets_bytes": asset_bytes, "pages": report}, indent=2))


if __name__ == "__main__":
    main()
