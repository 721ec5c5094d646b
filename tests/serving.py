"""Start `seasalt serve` through its console script on a free port, for the serve tests."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from cli_helpers import SEASALT, cli  # noqa: F401 (the serve tests' helpers)
CHECKOUT = Path(__file__).resolve().parent.parent
EXAMPLE = CHECKOUT / "docs" / "example_position.json"


def env() -> dict:
    """The environment of the console script: the checkout under test first on the path."""
    e = dict(os.environ)
    e["PYTHONPATH"] = os.pathsep.join(filter(None, [str(CHECKOUT), e.get("PYTHONPATH")]))
    return e


@contextmanager
def running_server(timeout: float = 600):
    """The base URL of a `seasalt serve --port 0` process, stopped (by its pid) on exit. Waits
    for the engine to be warm so that timings measure answers, not compiling."""
    proc = subprocess.Popen([SEASALT, "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env())
    try:
        line = proc.stdout.readline()
        assert line.startswith("seasalt serve: http://127.0.0.1:"), (line, proc.stderr.read())
        url = line.split()[2].rstrip("/")
        deadline = time.monotonic() + timeout
        while True:                               # the warm-up holds the advice lock
            err = proc.stderr.readline()
            if "engine ready" in err or time.monotonic() > deadline or not err:
                break
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def request(url: str, path: str, body: bytes | str | None = None, method: str | None = None,
            headers: dict | None = None, timeout: float = 120) -> tuple[int, str, dict]:
    """(status, body text, headers) of one request; errors are answers too (`timeout`: a guard
    against a hung server, not a measurement)."""
    if isinstance(body, str):
        body = body.encode()
    h = {"Content-Type": "application/json"} if body is not None else {}
    h.update(headers or {})
    req = urllib.request.Request(url + path, data=body, method=method, headers=h)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read().decode(), dict(r.headers)
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode(), dict(e.headers)


def cli_advice(path: Path | str, *args: str) -> str:
    """What `seasalt advise PATH ... --json` prints."""
    r = cli("advise", path, *args, "--json")
    assert r.returncode == 0, r.stderr
    return r.stdout




def masked(text: str) -> str:
    """An advice's JSON text with its two wall-clock numbers blanked (nothing else varies)."""
    return re.sub(r'("(?:seconds|samples_per_second)": )[-+.eE0-9]+', r"\1#", text)




# --- the page, driven as a person would: clicks on the zones, the cards and the steppers -------

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"    # Debian's (.ci/run installs it)


def card_lists(pos: dict) -> list[tuple[str, list[str]]]:
    """(zone, cards) of a position file in the page's zone names, cards in the file's order."""
    split = (lambda v: [c.strip() for c in v.split(",") if c.strip()] if isinstance(v, str) else list(v))
    out = [("hand", split(pos["hand"])), ("table", split(pos.get("table", ""))),
           ("drawn", split(pos.get("drawn", ""))), ("seen", split(pos.get("seen", "")))]
    for o in pos["opponents"]:
        out += [(f"opp{o['seat']}.table", split(o.get("table", ""))),
                (f"opp{o['seat']}.known", split(o.get("known", "")))]
    for name, pile in pos["piles"].items():
        if "cards" in pile:
            out.append((f"pile{name}.cards", split(pile["cards"])))
        elif pile.get("top"):
            out.append((f"pile{name}.top", split(pile["top"])))
    return [(z, cards) for z, cards in out if cards]


def click_card(page, zone: str, name: str) -> None:
    """Make `zone` the picker's target (unless it is) and click the card."""
    target = page.locator(f'.zone[data-zone="{zone}"] .target')
    if target.get_attribute("aria-pressed") != "true":
        target.click()
    page.click(f'#picker-grid .card[data-card="{name}"]')


def step_to(page, label: str, value: int) -> None:
    """Press a stepper's + or - until it shows `value`."""
    box = page.get_by_label(label, exact=True)
    while int(box.input_value()) != value:
        more = int(box.input_value()) < value
        page.get_by_role("button", name=f"{label}: {'one more' if more else 'one fewer'}").click()


def enter_position(page, pos: dict) -> None:
    """Enter a position file's content into a fresh page by clicking (numbers by their steppers)."""
    page.select_option("#players", str(pos["players"]))
    page.select_option("#seat", str(pos["seat"]))
    page.select_option("#expansion", pos.get("expansion", "base"))
    page.select_option("#decision", pos.get("decision", "play"))
    for name, pile in pos["piles"].items():
        mode = "cards" if "cards" in pile else "top"
        page.check(f'input[name="mode{name}"][value="{mode}"]')
    for zone, cards in card_lists(pos):
        for c in cards:
            click_card(page, zone, c)
    if "crab_pile" in pos:
        page.select_option("#crab-pile", pos["crab_pile"])
    for o in pos["opponents"]:
        step_to(page, f"seat {o['seat']} hand size", o["hand_size"])
    for name, pile in pos["piles"].items():
        if "cards" not in pile:
            step_to(page, f"pile {name} size", pile.get("size", 0))


def open_page(page, url: str) -> None:
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=true]", state="attached")


def press_advise(page, samples: int | None = None, seed: int | None = None, button="#advise") -> None:
    """Press Advise (or More samples) and wait for the answer or the error."""
    if samples is not None:
        page.fill("#samples", str(samples))
    if seed is not None:
        page.fill("#seed", str(seed))
    answers = int(page.evaluate("document.body.dataset.answers || '0'"))
    page.click(button)
    page.wait_for_selector(f'body[data-answers="{answers + 1}"]', state="attached", timeout=120_000)
