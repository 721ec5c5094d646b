"""The advisor page in a real headless Chromium (Debian's `chromium`, driven by Playwright), at a
phone's width (360 px) and a desktop's (1280 px): docs/example_position.json entered by clicking
gives the advice `seasalt advise` prints for the same seed; an impossible position shows the
CLI's message; the page is keyboard reachable, readable, and loads nothing from elsewhere.

SEASALT_SCREENSHOTS=docs pytest tests/faces/test_serve_browser.py  rewrites the README's screenshots."""
from __future__ import annotations

import json
import os
import re
import urllib.parse
from contextlib import contextmanager
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import pytest

from analyzer.play.robust import ROBUST_ME, ROBUST_OPPONENTS
from analyzer.play.advisor import LABELS
from analyzer.play.position import describe, parse
from analyzer.faces.web.app import canonical_cards
from kernels.seastead import layout as L
from serving import (CHROMIUM, EXAMPLE, cli_advice, click_card, enter_position, masked,
                     open_page, press_advise, request, running_server)

DECISIONS = EXAMPLE.parents[1] / "tests" / "fixtures" / "positions" / "decisions"

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed "
                               "(pip install -e '.[dev]')")
if not os.access(CHROMIUM, os.X_OK):
    pytest.skip(f"no Chromium at {CHROMIUM} (apt-get install chromium; .ci/run does)",
                allow_module_level=True)

EXAMPLE_POS = json.loads(EXAMPLE.read_text())
WIDTHS = (360, 1280)
SHOTS = os.environ.get("SEASALT_SCREENSHOTS")

ROBUST_PAIRS = len(ROBUST_OPPONENTS) * len(ROBUST_ME)   # --robust's models


@pytest.fixture(scope="module")
def url():
    with running_server() as u:
        yield u


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM)
        yield b
        b.close()


@contextmanager
def new_page(browser, url, width):
    """A fresh page at one width; it must raise no script error and ask no other site."""
    ctx = browser.new_context(viewport={"width": width, "height": 800})
    pg = ctx.new_page()
    errors, foreign = [], []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    # a 400 is the server's answer to an impossible position, not a fault of the page
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" and
          "responded with a status of 400" not in m.text else None)
    pg.on("request", lambda r: None if r.url.startswith((url, "data:", "blob:")) else foreign.append(r.url))
    pg.width = width
    yield pg
    ctx.close()
    assert errors == [] and foreign == []


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def page(browser, url, request):
    """The page at a phone's and at a desktop's width."""
    with new_page(browser, url, request.param) as pg:
        yield pg


@pytest.fixture
def desktop(browser, url):
    """The page at a desktop's width only (for what does not depend on the layout)."""
    with new_page(browser, url, WIDTHS[-1]) as pg:
        yield pg


def js_fixed(x: float, digits: int) -> str:
    """JavaScript's Number.toFixed: the exact binary value, halves rounded away from zero."""
    return str(Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP))


def expected_text(key: str, v: dict) -> tuple[str, str]:
    """What the page shows for one estimate: (value, interval), as app.js formats them."""
    if "rate" in v:
        lo, hi = v["ci95"]
        return (js_fixed(100 * v["rate"], 1) + "%",
                f"[{js_fixed(100 * lo, 1)}, {js_fixed(100 * hi, 1)}]")
    lo, hi = v["ci95"]
    mean = js_fixed(abs(v["mean"]), 2)
    shown = (("+" if v["mean"] >= 0 else "−") + mean) if key == "margin" else js_fixed(v["mean"], 2)
    return shown, f"[{js_fixed(lo, 2)}, {js_fixed(hi, 2)}]"


CONTRAST = """() => {
  const rgb = (s) => s.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map(v => { v /= 255; return v <= 0.03928 ? v / 12.92
                                 : ((v + 0.055) / 1.055) ** 2.4; })
                                .reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (e) => {
    for (; e; e = e.parentElement) {
      const c = rgb(getComputedStyle(e).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c.slice(0, 3);
    }
    return [255, 255, 255];
  };
  const bad = [];
  for (const e of document.querySelectorAll('body *')) {
    const text = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!text || e.offsetParent === null || e.closest('[aria-disabled=true], :disabled')) continue;
    const fg = rgb(getComputedStyle(e).color).slice(0, 3), bg = background(e);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) bad.push([e.tagName, e.className, e.textContent.trim().slice(0, 30), ratio.toFixed(2)]);
  }
  return bad;
}"""


def shoot(page, name: str, at: str | None = None) -> None:
    """With SEASALT_SCREENSHOTS=DIR: DIR/serve-<width>-<name>.png, the screen scrolled to `at`
    (an element's top), or the whole page; stored with a 256-colour palette (small files)."""
    if not SHOTS:
        return
    from PIL import Image
    path = Path(SHOTS) / f"serve-{page.width}-{name}.png"
    if at:
        page.eval_on_selector(at, "e => e.scrollIntoView({block: 'start'})")
        page.screenshot(path=str(path))
    else:
        page.set_viewport_size({"width": page.width,
                                "height": page.evaluate("document.documentElement.scrollHeight")})
        page.screenshot(path=str(path))
        page.set_viewport_size({"width": page.width, "height": 800})
    Image.open(path).convert("RGB").quantize(256).save(path, optimize=True)


PAGE_METRICS = ("win_game", "win_bet", "margin", "points", "best_opponent_points")


@pytest.fixture(scope="module")
def cli_text():
    """What the console script prints for the example, 20,000 deals, seed 5."""
    return cli_advice(EXAMPLE, "--samples", "20000", "--seed", "5")


def test_the_example_entered_by_clicking_gets_the_cli_advice(page, url, cli_text):
    open_page(page, url)
    enter_position(page, EXAMPLE_POS)
    assert page.text_content("#deck-computed") == "37"          # 58 less every card placed
    sync_api.expect(page.locator("#check")).to_have_text(f"Ready: {describe(parse(EXAMPLE_POS))}.")
    exported = json.loads(page.input_value("#json"))
    assert canonical_cards(exported) == canonical_cards({"expansion": "base", **EXAMPLE_POS})

    press_advise(page, samples=20000, seed=5)
    cli = json.loads(cli_text)
    assert page.text_content("#recommendation") == f"Recommendation: {LABELS[cli['recommendation']]}"
    assert page.text_content("#reason") == cli["reason"]
    assert cli["calibration"], "2 players against baseline: a measured field"
    assert page.text_content("#calibration") == " ".join(cli["calibration"]["words"])
    shown = page.eval_on_selector_all(".option", "els => els.map(e => e.dataset.option)")
    assert shown == cli["ranking"]                # the best first
    for name, option in cli["options"].items():
        for key in PAGE_METRICS:                  # the estimates the page shows (app.js METRICS)
            if key not in option:
                continue
            v = option[key]
            metric = f'.option[data-option="{name}"] .metric[data-metric="{key}"]'
            assert (page.text_content(metric + " .value"), page.text_content(metric + " .ci")) \
                == expected_text(key, v), (name, key)
    assert masked(page.text_content("#raw")) == masked(cli_text)
    assert page.text_content("#run").startswith("20,000 sampled deals · seed 5 · ")
    assert page.is_visible(f'.option[data-option="{cli["recommendation"]}"] .badge')
    assert page.evaluate(CONTRAST) == []                  # WCAG AA: 4.5:1 for all text
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width   # no sideways scroll
    if page.width == WIDTHS[0]:                   # a phone: the cards, then the answer
        shoot(page, "cards", at='.pile[data-pile="B"]')
        shoot(page, "advice", at="#h-advice")
    else:
        shoot(page, "example")
    if page.width != WIDTHS[-1]:
        return
    press_advise(page, button="#more")            # 4 times the deals, the same seed
    api = request(url, "/api/advise?samples=80000&seed=5", EXAMPLE.read_bytes())[1]
    assert masked(page.text_content("#raw")) == masked(api)
    assert page.text_content("#run").startswith("80,000 sampled deals · seed 5 · ")
    assert page.is_hidden("#stale")
    page.click('.zone[data-zone="hand"] .chip >> nth=0')   # the position changes: the advice
    assert page.is_visible("#stale") and page.is_disabled("#more")   # says it is stale


# the widest option of each drop-down against the room its box gives it (the arrow's 24 px off)
SELECTS_FIT = """() => [...document.querySelectorAll('select')].filter(e => e.offsetParent !== null)
  .map(e => { const c = document.createElement('canvas').getContext('2d');
              c.font = getComputedStyle(e).font;
              const widest = Math.max(...[...e.options].map(o => c.measureText(o.text).width));
              return [e.id, Math.ceil(widest), e.clientWidth - 24]; })
  .filter(([id, need, room]) => need > room)"""


def test_the_page_shows_no_error_before_anything_is_asked(page, url):
    """A fresh page invites, it does not scold: the empty position is not valid, but no error is
    shown until Advise is pressed; then the reason is. Every drop-down shows its options whole
    (the Decision's labels are short, its question is written under it)."""
    open_page(page, url)
    sync_api.expect(page.locator("#check")).to_contain_text("press Advise")
    assert "bad" not in page.get_attribute("#check", "class") and page.text_content("#status") == ""
    assert page.text_content("#decision-question").startswith("Play step: ")
    assert page.evaluate(SELECTS_FIT) == []
    shoot(page, "entry")
    press_advise(page)
    assert page.text_content("#status").startswith("error: you hold 0 card points")
    sync_api.expect(page.locator("#check")).to_have_class("check bad")


def test_a_fifth_mermaid_shows_the_cli_message(page, url):
    open_page(page, url)
    mermaid = '#picker-grid .card[data-card="mermaid"]'
    for _ in range(4):
        click_card(page, "hand", "mermaid")
    assert page.get_attribute(mermaid, "aria-disabled") == "true"     # greyed: none left
    assert page.text_content(f"{mermaid} .left") == "0"
    page.click(mermaid, force=True)                                    # does nothing
    assert page.locator('.zone[data-zone="hand"] .chip').count() == 4

    fifth = dict(EXAMPLE_POS, opponents=[{"seat": 1, "table": "fish:black,fish:green",
                                          "hand_size": 5, "known": "shark:green,mermaid,mermaid,mermaid"}])
    page.fill("#json", json.dumps(fifth))
    page.click("#import")
    message = "error: 5 x mermaid listed, only 4 exist"
    sync_api.expect(page.locator("#check")).to_have_text(message)
    assert page.text_content("#file-status") == f"import: loaded, but {message}"
    assert page.locator('.zone[data-zone="opp1.known"] .chip').count() == 4
    press_advise(page)
    assert page.text_content("#status") == message
    assert page.is_hidden("#result")
    if page.width == WIDTHS[0]:
        shoot(page, "fifth-mermaid", at="#h-advice")


def test_a_file_the_page_cannot_show_is_not_loaded(desktop, url):
    open_page(desktop, url)
    desktop.fill("#json", '{"players": 7}')
    desktop.click("#import")
    sync_api.expect(desktop.locator("#file-status")).to_have_text(
        "import: not loaded: error: position: missing key 'seat'")
    desktop.fill("#json", '{"hand": "mermaid,kraken"}')
    desktop.click("#import")
    sync_api.expect(desktop.locator("#file-status")).to_have_text(
        re.compile("^import: error: hand: unknown card kind 'kraken'"))


def test_the_page_loads_every_decision_but_never_changes_the_question(desktop, url):
    """A position file at any decision is loaded with its decision (issue 23); one with what the
    page cannot show (a pile card not remembered, a crab take, known deck cards) is refused by
    name and the CLI is named; nothing is loaded."""
    open_page(desktop, url)
    for kind in ("draw", "keep", "crab", "lobster", "steal", "play"):
        text = (DECISIONS / f"{kind}.json").read_text()
        desktop.fill("#json", text)
        desktop.eval_on_selector("#file-status", "e => { e.textContent = ''; }")
        desktop.click("#import")
        sync_api.expect(desktop.locator("#file-status")).to_have_text("import: loaded.")
        assert desktop.input_value("#decision") == kind
        assert canonical_cards(json.loads(desktop.input_value("#json"))) == \
            canonical_cards({"expansion": "base", **json.loads(text)})
    desktop.fill("#json", EXAMPLE.read_text())
    # (the status is cleared first, so that the wait is for this import: the last one's
    # "loaded." let the test go on while this one was still in flight, and its late "loaded."
    # overwrote the first refusal below)
    desktop.eval_on_selector("#file-status", "e => { e.textContent = ''; }")
    desktop.click("#import")
    sync_api.expect(desktop.locator("#file-status")).to_have_text("import: loaded.")
    before = desktop.input_value("#json")
    cases = [
        (json.dumps(dict(EXAMPLE_POS, piles={"A": {"size": 4, "top": "octopus:grey"},
                                              "B": {"cards": "?,crab:black,penguin:pink"}})),
         'a card of pile B you do not remember ("?")'),
        (json.dumps(dict(EXAMPLE_POS, piles={"A": {"size": 4, "top": "octopus:grey"},
                                              "B": {"cards": "shell:green,crab:black,penguin:pink",
                                                    "crab_taken": [{"seat": 1}]}})),
         '"crab_taken" of pile B'),
        (json.dumps(dict(EXAMPLE_POS, deck={"size": 37, "known": "mermaid"})),
         "a deck with known cards"),
    ]
    for text, what in cases:
        desktop.fill("#json", text)
        desktop.eval_on_selector("#file-status", "e => { e.textContent = ''; }")
        desktop.click("#import")
        status = desktop.locator("#file-status")
        sync_api.expect(status).to_contain_text("import: not loaded: ")
        assert what in status.text_content(), status.text_content()
        assert status.text_content().endswith("ask it with seasalt advise FILE")
        assert "unknown card kind" not in status.text_content()
        assert desktop.text_content("#deck-computed") == "37"      # the position is kept
        desktop.fill("#json", before)


def test_a_keep_decision_entered_by_clicking_gets_the_cli_advice(page, url):
    """tests/fixtures/positions/decisions/keep.json entered card by card (the decision, the two
    cards drawn, every place): the page writes that file and shows the CLI's advice for the
    same seed, every option with P(win game), its interval and 'vs best'."""
    path = DECISIONS / "keep.json"
    pos = json.loads(path.read_text())
    open_page(page, url)
    enter_position(page, pos)
    assert page.text_content("#deck-computed") == str(pos["deck"])   # the drawn cards are out
    sync_api.expect(page.locator("#check")).to_have_text(f"Ready: {describe(parse(pos))}.")
    assert canonical_cards(json.loads(page.input_value("#json"))) == canonical_cards(pos)
    press_advise(page, samples=2000, seed=11)
    text = cli_advice(path, "--samples", "2000", "--seed", "11")
    cli = json.loads(text)
    assert masked(page.text_content("#raw")) == masked(text)
    best = cli["options"][cli["recommendation"]]
    assert page.text_content("#recommendation") == f"Recommendation: {best['words']}"
    assert page.eval_on_selector_all(".option", "els => els.map(e => e.dataset.option)") == \
        cli["ranking"] and len(cli["ranking"]) == 4
    for name, o in cli["options"].items():
        metric = f'.option[data-option="{name}"] .metric'
        assert (page.text_content(f'{metric}[data-metric="win_game"] .value'),
                page.text_content(f'{metric}[data-metric="win_game"] .ci')) == \
            expected_text("win_game", o["win_game"])
        vs = page.text_content(f'{metric}[data-metric="vs_best"] .value')
        if name == cli["recommendation"]:
            assert vs == "best"
        else:
            v = o["vs_best"]
            assert vs == ("+" if v["mean"] >= 0 else "−") + js_fixed(abs(100 * v["mean"]), 1)
            assert page.text_content(f'{metric}[data-metric="vs_best"] .ci') == \
                f"[{js_fixed(100 * v['ci95'][0], 1)}, {js_fixed(100 * v['ci95'][1], 1)}]"
    assert page.text_content("#game") == f"P(win game) {cli['game']['words']}."
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    assert page.evaluate(CONTRAST) == []
    if page.width == WIDTHS[0]:
        shoot(page, "keep", at="#h-advice")


def test_the_robust_table_is_the_cli_answer(page, url):
    """'also ask several models': the table of model pairs and the verdict of `seasalt advise
    --robust` for the same seed (docs/example_position.json: it depends on the opponents)."""
    open_page(page, url)
    page.fill("#json", EXAMPLE.read_text())
    page.click("#import")
    sync_api.expect(page.locator("#file-status")).to_have_text("import: loaded.")
    page.fill("#samples", "")
    page.check("#robust")            # several models: fewer deals each by default, said not done
    assert page.input_value("#samples") == ""
    assert page.get_attribute("#samples", "placeholder") == "20000"
    assert page.text_content("#samples-per") == "(per model pair)"
    page.fill("#samples", "100000")
    page.uncheck("#robust")
    page.check("#robust")
    assert page.input_value("#samples") == "100000"        # a number given is never changed
    press_advise(page, samples=1000, seed=1)
    text = cli_advice(EXAMPLE, "--samples", "1000", "--seed", "1", "--robust")
    cli = json.loads(text)
    assert masked(page.text_content("#raw")) == masked(text)
    rows = page.eval_on_selector_all("#robust-table tbody tr", "els => els.map(e => e.dataset.best)")
    assert rows == [r["best"] for r in cli["rows"]] and len(rows) == ROBUST_PAIRS
    assert page.text_content("#verdict") == f"Verdict: {cli['verdict']}"
    assert cli["verdict"].startswith("depends: ")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    # every cell of every row on the screen, none scrolled away (a phone shows labelled lines)
    outside = page.eval_on_selector_all("#robust-table td", """els => els.filter(e => {
        const r = e.getBoundingClientRect(); return r.width === 0 || r.right > innerWidth; }).length""")
    assert outside == 0
    shoot(page, "robust", at="#robust-result")


def test_a_position_with_history_shows_both_verdicts(page, url):
    """docs/example_reading.json carries the round's history: the page offers to read the
    opponents' hands, and its advice is `seasalt advise --reading`'s for the same seed: the
    verdict reading the hands (LAST CHANCE), the effective sample size, and, since reading
    changes it, the verdict without reading (play on). Unticked, the page asks the plain
    advice (`--reading off`) and shows no reading."""
    reading = EXAMPLE.parent / "example_reading.json"
    open_page(page, url)
    sync_api.expect(page.locator("#reading-box")).to_be_hidden()
    page.fill("#json", reading.read_text())
    page.click("#import")
    sync_api.expect(page.locator("#file-status")).to_have_text("import: loaded.")
    sync_api.expect(page.locator("#reading-box")).to_be_visible()
    turns = len(json.loads(reading.read_text())["history"])
    assert page.text_content("#reading-turns") == f"{turns} turns"
    press_advise(page, samples=2000, seed=1)
    text = cli_advice(reading, "--samples", "2000", "--seed", "1")
    cli = json.loads(text)
    assert masked(page.text_content("#raw")) == masked(text)
    r = cli["reading"]
    assert r["flips"] and cli["recommendation"] == "last_chance"
    assert page.text_content("#recommendation") == \
        f"Recommendation: {cli['options']['last_chance']['words']}"
    note = page.text_content("#reading-note")
    assert f"effective sample size {round(r['ess']):,} of 2,000 deals" in note
    best = r["fit"][0]["models"][0]
    assert (f" Seat 1's choices read as: {best['model'].split('(')[0]} "
            f"{round(100 * best['share'])}% [") in note
    shoot(page, "reading", at="#reading-result")
    flip = page.text_content("#reading-flip")
    assert flip.startswith("Reading changes the verdict. Without reading: ")
    assert cli["options"][r["without"]["recommendation"]]["words"] in flip
    page.uncheck("#reading")
    press_advise(page, samples=2000, seed=1)
    assert masked(page.text_content("#raw")) == masked(
        cli_advice(reading, "--samples", "2000", "--seed", "1", "--reading", "off"))
    sync_api.expect(page.locator("#reading-result")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width


def test_link_and_download_carry_the_position(desktop, url, tmp_path):
    open_page(desktop, url)
    desktop.fill("#json", EXAMPLE.read_text())
    desktop.click("#import")
    sync_api.expect(desktop.locator("#file-status")).to_have_text("import: loaded.")
    desktop.check("#use-totals")
    for q, total in enumerate((12, 20)):
        desktop.fill(f"#totals .total >> nth={q}", str(total))
        desktop.press(f"#totals .total >> nth={q}", "Tab")
    assert json.loads(desktop.input_value("#json"))["totals"] == [12, 20]
    link = desktop.url
    assert urllib.parse.urlsplit(link).fragment.startswith("position=")
    with desktop.expect_download() as d:
        desktop.click("#download")
    path = tmp_path / "position.json"
    d.value.save_as(path)
    saved = json.loads(path.read_text())
    assert saved == json.loads(desktop.input_value("#json"))
    assert parse(saved).pool.tolist() == parse(EXAMPLE_POS).pool.tolist()

    other = desktop.context.new_page()
    other.goto(link)
    other.wait_for_selector("body[data-ready=true]", state="attached")
    assert json.loads(other.input_value("#json")) == saved
    assert other.text_content("#deck-computed") == "37"
    assert other.text_content("#file-status") == "link: loaded."
    other.click("#clear")
    sync_api.expect(other.locator("#deck-computed")).to_have_text("58")     # once redrawn
    other.set_input_files("#upload", path)                  # "Open a file..."
    sync_api.expect(other.locator("#file-status")).to_have_text("position.json: loaded.")
    assert json.loads(other.input_value("#json")) == saved
    other.close()


def test_keyboard_reaches_every_control_and_adds_cards(desktop, url):
    open_page(desktop, url)
    names = desktop.evaluate("""() => [...document.querySelectorAll('button, input, select, textarea, summary')]
        .filter(e => e.offsetParent !== null && !e.disabled && !e.classList.contains('visually-hidden'))
        .map(e => [e.tabIndex, e.getAttribute('aria-label') || e.labels?.[0]?.textContent
                                || e.textContent || ''])""")
    assert names and all(t >= 0 and n.strip() for t, n in names), names
    for _ in range(400):                                     # Tab from the top reaches Advise
        desktop.keyboard.press("Tab")
        if desktop.evaluate("document.activeElement.id") == "advise":
            break
    else:
        pytest.fail("Tab never reached the Advise button")
    desktop.focus('.zone[data-zone="table"] .target')
    desktop.keyboard.press("Enter")                          # the table becomes the target
    desktop.focus('#picker-grid .card[data-card="boat:black"]')
    desktop.keyboard.press("Enter")
    desktop.keyboard.press("Space")
    assert desktop.evaluate("document.activeElement.dataset.card") == "boat:black"
    assert desktop.locator('.zone[data-zone="table"] .chip').count() == 2
    desktop.focus('.zone[data-zone="table"] .chip')
    desktop.keyboard.press("Enter")                          # a chip removes its card
    assert desktop.locator('.zone[data-zone="table"] .chip').count() == 1


def test_a_game_review_opens_in_the_page_costliest_first(page, url, tmp_path):
    """`seasalt review --json` opened as a file: every decision of the seat, the costliest
    (largest loss in P(win game)) first, each with the advisor's ranking of its options."""
    from serving import cli
    r = cli("review", "--seed", "7", "--players", "2", "--seat", "0", "--target", "20",
             "--samples", "200", "--json")
    assert r.returncode == 0, r.stderr
    review = json.loads(r.stdout)
    path = tmp_path / "review.json"
    path.write_text(r.stdout)
    open_page(page, url)
    page.set_input_files("#upload", path)
    sync_api.expect(page.locator("#file-status")).to_have_text(
        'review.json: a game review, shown under "Game review".')
    shown = page.eval_on_selector_all(
        "#review-list > li", "els => els.map(e => [Number(e.dataset.round), Number(e.dataset.turn), e.dataset.decision])")
    order = sorted(range(len(review["decisions"])),
                   key=lambda i: (-review["decisions"][i]["loss"]["mean"], i))
    assert shown == [[review["decisions"][i][k] for k in ("round", "turn", "decision")] for i in order]
    first = review["decisions"][order[0]]
    ranked = sorted(first["options"], key=lambda k: -first["options"][k]["win_game"]["rate"])
    assert page.eval_on_selector_all("#review-list > li:first-child tbody tr",
                                     "els => els.map(e => e.dataset.option)") == ranked
    loss = first["loss"]
    assert page.text_content("#review-list > li:first-child .loss").startswith(
        f" · loss +{js_fixed(100 * loss['mean'], 1)} [{js_fixed(100 * loss['ci95'][0], 1)}, "
        f"{js_fixed(100 * loss['ci95'][1], 1)}]")
    read = first["reading"]["win_game_chosen"]      # reading on: the weighted P(win), named
    assert page.text_content("#review-list > li:first-child .read") == (
        f" · P(win) read {js_fixed(100 * read['rate'], 1)}% [{js_fixed(100 * read['ci95'][0], 1)}"
        f", {js_fixed(100 * read['ci95'][1], 1)}]")
    assert "weighted by the round's history" in page.text_content("#review-head")
    s = review["summary"]
    assert (f"an error rate of +{js_fixed(100 * s['error_rate'], 2)} "
            f"[{js_fixed(100 * s['error_rate_lo'], 2)}, {js_fixed(100 * s['error_rate_hi'], 2)}]"
            ) in page.text_content("#review-head")
    assert_waterfall(page, review)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    assert page.evaluate(CONTRAST) == []


def js_pp(d: dict) -> str:
    """app.js's PP and PPCI: a change in points of % with its interval."""
    sign = "+" if d["mean"] >= 0 else "\u2212"
    return (f"{sign}{js_fixed(abs(100 * d['mean']), 1)} [{js_fixed(100 * d['ci95'][0], 1)}, "
            f"{js_fixed(100 * d['ci95'][1], 1)}]")


def assert_waterfall(page, review: dict) -> None:
    """The review's luck and skill drawn as a waterfall, its caption quoting every term."""
    luck, q = review["luck"], review["seat"]
    assert page.eval_on_selector_all("#luck-chart rect", "els => els.map(e => e.dataset.term)") \
        == ["start", "luck", "skill", "opponents", "residual", "result"]
    cap = page.text_content("#luck-caption")
    assert f"start {js_fixed(100 * luck['start']['mean'], 1)} [" in cap
    assert f"luck {js_pp(luck['luck'])} ({luck['counts']['luck']} deals and draws)" in cap
    assert f"seat {q}'s decisions {js_pp(luck['skill'])} ({luck['counts']['skill']} " in cap
    assert f"the opponents' {js_pp(luck['opponents'])}" in cap
    assert f"noise {js_pp(luck['residual'])}" in cap
    assert ("won (100)" if luck["result"] else "not won (0)") in cap


def test_a_reviews_costliest_decisions_are_practised_and_kept_in_the_browser(page, url, tmp_path):
    """A review opened on the page offers its costliest decisions (a real choice unlike the
    advisor's), costliest first, as positions to answer again: the advisor's option is scored
    good, the worst option costly with its rank and its difference, the score kept in the
    browser across a reload, and "Forget" clears it."""
    from serving import cli
    r = cli("review", "--seed", "7", "--players", "2", "--seat", "0", "--target", "20",
            "--samples", "200", "--json")
    assert r.returncode == 0, r.stderr
    review = json.loads(r.stdout)
    costly = sorted((d for d in review["decisions"] if d["chosen"] != d["advisor"]
                     and d["loss"]["mean"] > 0 and len(d["options"]) > 1),
                    key=lambda d: -d["loss"]["mean"])[:5]
    assert len(costly) >= 2
    path = tmp_path / "review.json"
    path.write_text(r.stdout)
    open_page(page, url)
    page.set_input_files("#upload", path)
    page.wait_for_selector(f'body[data-practice="{len(costly)}"]', state="attached")
    first = costly[0]
    assert f"round {first['round']}, turn {first['turn']}" in page.text_content("#practice-position")
    assert page.text_content("#practice-question") == first["question"]
    assert page.eval_on_selector_all("#practice-options button", "els => els.map(e => e.dataset.option)") \
        == list(first["options"])
    page.click(f'#practice-options button[data-option="{first["advisor"]}"]')
    answer = page.locator("#practice-answer p")
    assert answer.get_attribute("data-rank") == "1"
    assert answer.text_content().startswith("Good. The advisor's choice.")
    shoot(page, "practice", "#practice")
    page.click("#practice-next")
    second = costly[1]
    worst = min(second["options"], key=lambda k: second["options"][k]["win_game"]["rate"])
    page.click(f'#practice-options button[data-option="{worst}"]')
    text = page.text_content("#practice-answer p")
    d = second["options"][worst]["vs_advisor"]
    if d["ci95"][1] < 0:
        assert text.startswith("Costly. The advisor chooses")
        assert f"number {len(second['options'])} of {len(second['options'])}, {js_pp(d)}" in text
    assert page.locator("#practice-options button:not([disabled])").count() == 0
    agreed = 1 + (d["ci95"][1] >= 0)
    page.reload()
    page.wait_for_selector(f'body[data-practice="{len(costly)}"]', state="attached")
    assert page.text_content("#practice-status").endswith(
        f"answered 2, as good as the advisor's choice {agreed}.")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    page.click("#practice-forget")
    assert page.get_attribute("body", "data-practice") == "0" and page.locator("#practice").is_hidden()


def test_a_forced_decision_is_shown_as_forced_in_the_review(desktop, url, tmp_path):
    """A crab search through a pile of one mermaid (seed 70081, random players) has one
    choice: the page's review says it was forced, not that the advisor agreed."""
    from serving import cli
    r = cli("review", "--seed", "70081", "--players", "2", "--seat", "0", "--policy", "random",
            "--samples", "40", "--json")
    assert r.returncode == 0, r.stderr
    decisions = json.loads(r.stdout)["decisions"]
    forced = [d for d in decisions if len(d["options"]) == 1]
    assert forced
    path = tmp_path / "review.json"
    path.write_text(r.stdout)
    open_page(desktop, url)
    desktop.set_input_files("#upload", path)
    desktop.wait_for_selector("#review-list > li")
    for d in forced:
        li = desktop.locator(f'#review-list > li[data-round="{d["round"]}"][data-turn="{d["turn"]}"]'
                             f'[data-decision="{d["decision"]}"]')
        assert "(forced: the only choice)" in li.text_content()
        assert "as the advisor" not in li.text_content()


def test_a_long_review_shows_the_costliest_and_folds_the_rest(desktop, url, tmp_path):
    """A whole game's review (about ninety decisions): the costliest five in full, the next ten
    folded to their one line, the rest behind one button; the decisions named in the game's
    words, never the engine's (crab_card, crab_pile)."""
    from serving import cli
    r = cli("review", "--seed", "7", "--players", "2", "--seat", "0", "--samples", "200",
             "--json")
    assert r.returncode == 0, r.stderr
    decisions = json.loads(r.stdout)["decisions"]
    assert len(decisions) > 15
    path = tmp_path / "review.json"
    path.write_text(r.stdout)
    open_page(desktop, url)
    desktop.set_input_files("#upload", path)
    desktop.wait_for_selector("#review-list > li")
    items = desktop.locator("#review-list > li")
    assert items.count() == len(decisions)
    visible = [items.nth(i).is_visible() for i in range(items.count())]
    assert visible == [True] * 15 + [False] * (len(decisions) - 15)
    assert desktop.locator("#review-list > li > details").count() == len(decisions) - 5
    assert desktop.locator("#review-list > li:nth-child(6) table").is_hidden()     # folded
    words = desktop.text_content("#review-list")
    assert "crab_card" not in words and "crab_pile" not in words and "victim" not in words
    desktop.click("#review-more")
    assert all(items.nth(i).is_visible() for i in range(items.count()))
    assert desktop.is_hidden("#review-more")


def test_a_game_is_played_by_clicking_to_its_end(page, url, tmp_path):
    """The Play view: a new game, a hint asked, then every decision clicked (the first action
    the page offers) until the game is over; each click shows the server's next view, and the
    page never scrolls sideways. Then the review, and the downloaded game file opened again."""
    open_page(page, url)
    page.click("#play-box > summary")
    page.select_option("#play-players", "2")
    page.fill("#play-target", "12")
    page.fill("#play-seed", "3")
    page.click("#play-new")
    page.wait_for_selector('body[data-play-views="1"]', state="attached")
    assert "seed 3" in page.text_content("#play-head")
    assert page.locator("#play-hand .chip").count() == 0          # the user's turn comes first
    assert page.locator("#play-actions button").count() >= 1
    page.click("#play-hint")
    page.wait_for_selector('body[data-hints="1"]', state="attached", timeout=120_000)
    rows = page.locator("#play-hint-table tr")
    assert rows.count() == page.locator("#play-actions button").count() + 1
    assert re.search(r"\d+\.\d% \[", page.text_content("#play-hint-table"))
    shoot(page, "play", "#play-turn")         # the decision, its actions and the hint
    views = 1
    while page.get_attribute("body", "data-play-over") != "true":
        step = int(page.get_attribute("body", "data-play-step"))
        words = page.text_content("#play-actions button >> nth=0")
        page.click("#play-actions button >> nth=0")
        views += 1
        page.wait_for_selector(f'body[data-play-views="{views}"]', state="attached")
        assert int(page.get_attribute("body", "data-play-step")) == step + 1, words
        turn = page.text_content("#play-turn")                 # the question, in game words
        assert turn.endswith("?") or turn.startswith("Game over"), turn
        assert page.evaluate("document.documentElement.scrollWidth") <= page.width
        assert views < 400
    assert page.text_content("#play-turn").startswith("Game over: seat")
    assert page.locator("#play-actions button").count() == 0
    gid = page.get_attribute("#play-download", "href").split("/")[3]
    status, text, _ = request(url, f"/api/play/{gid}")
    view = json.loads(text)
    assert view["over"] and view["step"] == views - 1
    assert page.text_content("#play-head").endswith(", ".join(
        f"{'you' if q == 0 else 'seat ' + str(q)} {t}" for q, t in enumerate(view["totals"])))
    shoot(page, "play-over", "#play")
    page.click("#play-review")
    page.wait_for_selector('body[data-reviews="1"]', state="attached", timeout=120_000)
    status, text, _ = request(url, f"/api/play/{gid}/review")
    reviewed = json.loads(text)["decisions"]
    items = page.locator("#review-list li.reviewed")
    assert items.count() == len(reviewed) > 0
    assert_waterfall(page, json.loads(text))        # the same seed: the same luck
    costliest = max(reviewed, key=lambda d: d["loss"]["mean"])
    assert items.nth(0).get_attribute("data-step") == str(costliest["step"])
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    shoot(page, "play-review", "#review")
    # the costliest decision links back to its moment: the view then, the choice made marked
    items.nth(0).locator("button.moment").click()
    page.wait_for_selector('body[data-play-moment="true"]', state="attached")
    step = costliest["step"]
    assert page.get_attribute("body", "data-play-step") == str(step)
    assert page.locator("#play-actions button:not([disabled])").count() == 0
    taken = page.text_content("#play-actions button.taken")
    assert taken.startswith(costliest["chosen_words"].replace("play on (end the turn)",
                                                              "end the turn"))
    views += 1
    page.click("#play-back")
    page.wait_for_selector('body[data-play-moment="false"]', state="attached")
    views += 1
    assert page.text_content("#play-turn").startswith("Game over")
    # the downloaded game file opens again: the same game, at its end
    path = tmp_path / "game.json"
    path.write_text(request(url, f"/api/play/{gid}/game")[1])
    page.set_input_files("#play-upload", str(path))
    page.wait_for_selector(f'body[data-play-views="{views + 1}"]', state="attached")
    assert page.get_attribute("#play-download", "href") != f"/api/play/{gid}/game"
    assert page.text_content("#play-turn") == f"Game over: {view['result']}"
    assert f"the game at step {view['step']}" in page.text_content("#play-status")


def test_the_other_players_turns_one_step_at_a_time(desktop, url):
    """With "one step at a time", the lines narrated since the last view come one per Next step
    (the decision's buttons hidden meanwhile); the whole narration is the server's view's."""
    open_page(desktop, url)
    desktop.click("#play-box > summary")
    desktop.check("#play-stepwise")
    desktop.select_option("#play-players", "4")
    desktop.fill("#play-seed", "8")
    desktop.click("#play-new")
    desktop.wait_for_selector('body[data-play-views="1"]', state="attached")
    gid = desktop.get_attribute("#play-download", "href").split("/")[3]
    views = 1
    while True:                     # the user's draw, keep, ... until the turn passes on
        shown = desktop.locator("#play-log li").count()
        desktop.click("#play-actions button >> nth=0")
        views += 1
        desktop.wait_for_selector(f'body[data-play-views="{views}"]', state="attached")
        if desktop.get_attribute("body", "data-play-pending") != "0":
            break
    view = json.loads(request(url, f"/api/play/{gid}")[1])
    fresh = len(view["log"]) - shown
    assert fresh >= 4                   # the user's own lines and three opponents' turns
    for k in range(1, fresh):
        assert desktop.locator("#play-log li").count() == shown + k
        assert not desktop.is_visible("#play-actions") and desktop.is_visible("#play-next")
        assert desktop.text_content("#play-log li >> nth=-1") == view["log"][shown + k - 1]
        desktop.click("#play-next")
    assert desktop.locator("#play-log li").count() == len(view["log"])
    assert desktop.is_visible("#play-actions") and not desktop.is_visible("#play-stepper")
    assert [desktop.text_content(f"#play-log li >> nth={i}") for i in range(len(view["log"]))] \
        == view["log"]
    while desktop.get_attribute("body", "data-play-pending") == "0":
        desktop.click("#play-actions button >> nth=0")
        views += 1
        desktop.wait_for_selector(f'body[data-play-views="{views}"]', state="attached")
    desktop.click("#play-all")
    assert desktop.locator("#play-log li").count() == len(
        json.loads(request(url, f"/api/play/{gid}")[1])["log"])
    assert desktop.is_visible("#play-actions")


BIG_SEED = 882017740938139736          # JavaScript's Number() made it 882017740938139800
TOP_SEED = 2 ** 64 - 1


def test_a_seed_beyond_2_53_is_shown_and_played_exactly(page, url, tmp_path):
    """A typed seed goes to the server as its digits and the page shows the game's seed
    exactly; a game file opened again keeps its seed to the last digit; a seed the box cannot
    hold is refused on the page, naming the box, and asks the server nothing. Was: the page
    showed 882017740938139800 for seed 882017740938139736 (and dealt that game for it)."""
    open_page(page, url)
    page.click("#play-box > summary")
    for bad in ("12x", "-1", str(2 ** 64), "1e5", "²"):
        page.fill("#play-seed", bad)
        page.click("#play-new")
        assert page.text_content("#play-status") == (
            "error: the game's Seed must be a whole number from 0 to 18446744073709551615 (or "
            f"empty for a random seed), got “{bad}”")
        assert page.get_attribute("body", "data-play-views") is None     # nothing asked
    shoot(page, "play-seed-refused", "#play")
    page.fill("#play-seed", str(BIG_SEED))
    page.click("#play-new")
    page.wait_for_selector('body[data-play-views="1"]', state="attached")
    assert f"· seed {BIG_SEED} ·" in page.text_content("#play-head")
    gid = page.get_attribute("#play-download", "href").split("/")[3]
    assert json.loads(request(url, f"/api/play/{gid}")[1])["seed"] == BIG_SEED
    shoot(page, "play-seed", "#play")
    # a game file of the largest seed, opened: the same game, its seed exact
    status, text, _ = request(url, "/api/play", json.dumps({"seed": TOP_SEED}))
    view = json.loads(text)
    for _ in range(3):
        view = json.loads(request(url, f"/api/play/{view['id']}",
                                  json.dumps({"action": view["legal"][0]["id"]}))[1])
    path = tmp_path / "game.json"
    path.write_text(request(url, f"/api/play/{view['id']}/game")[1])
    page.set_input_files("#play-upload", str(path))
    page.wait_for_selector('body[data-play-views="2"]', state="attached")
    assert f"· seed {TOP_SEED} ·" in page.text_content("#play-head")
    assert "the game at step 3" in page.text_content("#play-status")
    gid = page.get_attribute("#play-download", "href").split("/")[3]
    again = json.loads(request(url, f"/api/play/{gid}")[1])
    assert {k: v for k, v in again.items() if k != "id"} == \
        {k: v for k, v in view.items() if k != "id"}


def test_the_advice_shows_and_asks_again_the_seed_exactly(desktop, url):
    """The advice's seed shown is its run's to the last digit, typed or fresh, and More
    samples asks the same seed again; a seed the box cannot hold is refused on the page."""
    open_page(desktop, url)
    enter_position(desktop, EXAMPLE_POS)
    press_advise(desktop, samples=200, seed=TOP_SEED)
    assert f" · seed {TOP_SEED} · " in desktop.text_content("#run")
    assert f'"seed": {TOP_SEED},' in desktop.text_content("#raw")
    press_advise(desktop, button="#more")
    assert desktop.text_content("#run").startswith(f"800 sampled deals · seed {TOP_SEED} · ")
    press_advise(desktop, samples=200, seed="")                       # a fresh seed
    fresh = re.search(r'"seed": (\d+),', desktop.text_content("#raw")).group(1)
    assert f" · seed {fresh} · " in desktop.text_content("#run")
    answers = desktop.get_attribute("body", "data-answers")
    desktop.fill("#seed", "7.5")
    desktop.click("#advise")
    assert desktop.text_content("#status").startswith(
        "error: Seed must be a whole number from 0 to 18446744073709551615")
    assert desktop.get_attribute("body", "data-answers") == answers


def test_a_seastead_game_is_played_by_clicking_to_its_end_with_a_hint(page, url, tmp_path):
    """The Seastead view: a new game on a seed, a hint that is `seasalt seastead advise` of the
    downloaded game file (same samples and seed), then every decision clicked (the last option
    offered) to the end; the final scores are the engine's for the file's choices, and the page
    never scrolls sideways."""
    from analyzer.seastead.components import Setup, load
    from analyzer.seastead.table import Game
    from cli_helpers import cli
    open_page(page, url)
    page.click("#ss-box > summary")
    page.fill("#ss-seed", "7")
    page.click("#ss-new")
    page.wait_for_selector('body[data-ss-views="1"]', state="attached")
    assert "seed 7" in page.text_content("#ss-head")
    for _ in range(8):                         # a few decisions in, where the options are many
        views = int(page.get_attribute("body", "data-ss-views"))
        page.click("#ss-options button >> nth=-1")
        page.wait_for_selector(f'body[data-ss-views="{views + 1}"]', state="attached")
    page.click("#ss-hint")
    page.wait_for_selector('body[data-ss-hints="1"]', state="attached", timeout=120_000)
    gid = page.get_attribute("#ss-download", "href").split("/")[4]
    path = tmp_path / "game.json"
    path.write_text(request(url, f"/api/seastead/play/{gid}/game")[1])
    p = cli("seastead", "advise", path, "--samples", "400", "--seed", "1", "--json")
    advice = json.loads(p.stdout)
    rows = page.locator("#ss-hint-table tr")
    assert rows.count() == len(advice["options"]) + 1 == page.locator("#ss-options button").count() + 1
    best = advice["options"][advice["best"]]
    w = [js_fixed(100 * x, 1) for x in (best["win_game"]["rate"], *best["win_game"]["ci95"])]
    assert rows.nth(1).text_content() == f"{best['text']}{w[0]}% [{w[1]}, {w[2]}]best"
    assert page.evaluate("document.documentElement.scrollWidth") <= page.width
    shoot(page, "seastead", "#ss-turn" if page.width < 600 else "#seastead")
    views = int(page.get_attribute("body", "data-ss-views"))
    while page.get_attribute("body", "data-ss-over") != "true":
        assert page.locator("#ss-options button").count() >= 2
        page.click("#ss-options button >> nth=-1")
        views += 1
        page.wait_for_selector(f'body[data-ss-views="{views}"]', state="attached")
        assert page.evaluate("document.documentElement.scrollWidth") <= page.width
        assert views < 400
    assert page.text_content("#ss-turn").startswith("The game is over")
    assert page.locator("#ss-options button").count() == 0 and page.is_disabled("#ss-hint")
    path.write_text(request(url, f"/api/seastead/play/{gid}/game")[1])
    data = json.loads(path.read_text())
    game = Game(load(), Setup(), 7, tuple((r[0], L.KIND_NAMES.index(r[1]), *r[2:])
                                          for r in data["choices"]))
    s = game.final()
    for q in (0, 1):
        assert f"score {s[L.TOTAL + q]}" in page.text_content(f"#ss-seats .seat >> nth={q}")
    p = cli("seastead", "review", "--game", path, "--samples", "4", "--json")
    assert p.returncode == 0 and json.loads(p.stdout)["over"]


def test_a_bad_seastead_seed_is_refused_in_the_page(desktop, url):
    open_page(desktop, url)
    desktop.click("#ss-box > summary")
    desktop.fill("#ss-seed", "-3")
    desktop.click("#ss-new")
    assert "Seed must be a whole number" in desktop.text_content("#ss-status")
    assert desktop.is_hidden("#ss-game")
