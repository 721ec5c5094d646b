"""Warm timings of `seasalt serve` as a person meets them, in headless Chromium: the page from
the start of its navigation until it is ready to click, and an advice of 100,000 sampled deals
from the Advise click until the answer is drawn (both measured by the page itself, so the
driver's own delays do not count); also the API's round trip alone and the advisor's compute
time within it. docs/example_position.json, entered by clicking (the browser test's driver,
tests/serving.py).

    python scripts/bench_serve.py [--repeats 5] [--samples 100000]

Wall-clock medians and best of --repeats after one warm-up of each; run it on an idle machine.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
from serving import (CHROMIUM, EXAMPLE, enter_position, open_page, press_advise,  # noqa: E402
                     request, running_server)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--samples", type=int, default=100_000)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    pos = json.loads(EXAMPLE.read_text())
    load, click, api, compute = [], [], [], []
    with running_server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        for i in range(args.repeats + 1):
            open_page(page, url)
            if i:
                load.append(float(page.get_attribute("body", "data-ready-ms")) / 1000)
        enter_position(page, pos)
        for i in range(args.repeats + 1):
            press_advise(page, samples=args.samples, seed=i)
            assert page.is_visible("#result")
            if i:
                click.append(float(page.get_attribute("body", "data-answer-ms")) / 1000)
            t = time.perf_counter()
            status, body, _ = request(url, f"/api/advise?samples={args.samples}&seed={i}",
                                      EXAMPLE.read_bytes())
            assert status == 200
            if i:
                api.append(time.perf_counter() - t)
                compute.append(json.loads(body)["timing"]["seconds"])
        browser.close()
    print(f"load average at the end: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print(f"{'':<44}{'median s':>10}{'best s':>10}")
    for name, xs in (("page load until ready", load),
                     (f"Advise click until {args.samples:,} deals shown", click),
                     (f"POST /api/advise ({args.samples:,} deals)", api),
                     ("  of which the advisor computing", compute)):
        print(f"{name:<44}{statistics.median(xs):>10.3f}{min(xs):>10.3f}")


if __name__ == "__main__":
    main()
