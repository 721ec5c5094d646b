"use strict";
// The Seastead view: a game against a bot through the server's /api/seastead/play
// (analyzer/faces/web/seastead_play.py). The page shows the view the server sends and posts the
// index of the option clicked; every rule is the engine's.
// (el(), seedProblem() and playCall() are app.js's and play.js's: the scripts share the page.)

const HINT_SAMPLES = 400, HINT_SEED = 1;     // as `seasalt seastead advise FILE` with these
let SS = null;                               // the current view

function ssSay(text, bad = false) {
  const p = document.getElementById("ss-status");
  p.textContent = text;
  p.className = bad ? "bad" : "";
}

async function ssNew() {
  const seed = document.getElementById("ss-seed").value.trim();
  const bad = seedProblem(seed, "the Seastead game's Seed");
  if (bad) {
    document.getElementById("ss-seed").focus();
    return ssSay(bad, true);
  }
  const body = {sides: document.getElementById("ss-sides").value,
                solo: document.getElementById("ss-solo").checked,
                opponent: document.getElementById("ss-opponent").value.trim() || "heuristic"};
  if (body.solo) body.sides = "AAAA";
  if (seed) body.seed = seed;                // its digits: the server reads them exactly
  try {
    ssShow(await playCall("/api/seastead/play", body));
    ssSay("");
  } catch (e) {
    ssSay(e.message, true);
  }
}

async function ssChoose(i) {
  try {
    ssShow(await playCall(`/api/seastead/play/${SS.id}`, {option: i}));
  } catch (e) {
    ssSay(e.message, true);
  }
}

function ssSeat(s) {
  const res = Object.entries(s.resources).map(([r, n]) => `${n} ${r}`).join(", ");
  const built = Object.entries(s.built).map(([t, n]) => `${t} ${n}`).join(", ");
  const specs = s.specialists.length ? s.specialists.join(", ") : "none";
  const score = s.score === null ? "" : ` · score ${s.score}`;
  return el("p", {class: "seat"}, el("strong", {}, s.seat === 0 ? "You (seat 0)" : `Seat ${s.seat}: ${s.who}`),
            `: ${res} · cleanup ${s.cleanup} · built ${built} · specialists ${specs}${score}`);
}

function ssTile(t) {
  const locs = t.locations.map((l) => {
    const parts = [l.location];
    if (l.building) parts.push(l.building);
    if (l.ship) parts.push(`ship: ${l.ship}`);
    return parts.join(" ");
  });
  return el("p", {class: "tile"}, el("strong", {}, t.tile),
            ` (demands ${t.demand}${t.locked ? ", locked" : ""}): ${locs.join(" · ")}`);
}

function ssShow(v) {
  SS = v;
  const body = document.body.dataset;       // for tests and scripts: views shown, game over
  body.ssViews = String(Number(body.ssViews || 0) + 1);
  body.ssOver = String(v.decision === null);
  document.getElementById("ss-game").hidden = false;
  document.getElementById("ss-hint-box").hidden = true;
  document.getElementById("ss-head").textContent =
    `Seastead, ${v.setup}, seed ${v.seed}: round ${v.round}, ${v.choices} choices so far; ` +
    `${v.deck} cards in the dive deck`;
  document.getElementById("ss-seats").replaceChildren(...v.seats.map(ssSeat));
  document.getElementById("ss-board").replaceChildren(...v.tiles.map(ssTile));
  const shown = [`Dock tiles: ${v.docks.join(", ") || "none"}`,
                 `Specialists: ${v.specialists.join(", ") || "none"}`];
  if (v.decree) shown.push(`Decree: ${v.decree}`);
  document.getElementById("ss-displays").textContent = shown.join(" · ");
  const opts = document.getElementById("ss-options");
  if (v.decision) {
    document.getElementById("ss-turn").textContent =
      `Your decision: ${v.decision.kind} (${v.decision.options.length} options)`;
    opts.replaceChildren(...v.decision.options.map((text, i) =>
      el("button", {type: "button", "data-option": i, onclick: () => ssChoose(i)}, text)));
  } else {
    const won = v.winners.includes(0), both = v.winners.length > 1;
    document.getElementById("ss-turn").textContent =
      `The game is over: ${both ? "a shared win" : won ? "you win" : "you lose"}`;
    opts.replaceChildren();
  }
  document.getElementById("ss-hint").disabled = !v.decision;
  document.getElementById("ss-download").href = `/api/seastead/play/${v.id}/game`;
  document.getElementById("ss-log").replaceChildren(...v.log.map((t) => el("li", {}, t.trim())));
}

async function ssHint() {
  const box = document.getElementById("ss-hint-box");
  ssSay("weighing every option…");
  try {
    const h = await playCall(`/api/seastead/play/${SS.id}/hint?samples=${HINT_SAMPLES}&seed=${HINT_SEED}`);
    const pct = (x) => (100 * x).toFixed(1);
    const rows = h.ranking.map((i) => {
      const o = h.options[i], w = o.win_game, d = o.vs_best;
      return el("tr", {class: i === h.best ? "best" : ""},
                el("td", {}, o.text),
                el("td", {class: "num"}, `${pct(w.rate)}% [${pct(w.ci95[0])}, ${pct(w.ci95[1])}]`),
                el("td", {class: "num"}, i === h.best ? "best" :
                   `${pct(d.diff)} [${pct(d.ci95[0])}, ${pct(d.ci95[1])}]`));
    });
    document.getElementById("ss-hint-table").replaceChildren(
      el("tr", {}, el("th", {}, "option"), el("th", {}, "P(win game)"), el("th", {}, "vs best")),
      ...rows);
    const next = h.ranking.length > 1 ? h.options[h.ranking[1]] : null;
    const apart = next && next.vs_best.ci95[1] < 0;
    document.getElementById("ss-hint-text").textContent =
      `Best: ${h.options[h.best].text}` + (next ? (apart ? ", ahead of the next beyond its interval." :
        `; not told apart from “${next.text}” at ${h.samples} redeals.`) : ".") +
      ` Each option played to the end on ${h.samples} redeals of the unseen decks, every seat ` +
      `then playing ${h.model_label} (seasalt seastead advise FILE --samples ${h.samples} ` +
      `--seed ${h.seed}).`;
    box.hidden = false;
    document.body.dataset.ssHints = String(Number(document.body.dataset.ssHints || 0) + 1);
    ssSay("");
  } catch (e) {
    ssSay(e.message, true);
  }
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("ss-new").addEventListener("click", ssNew);
  document.getElementById("ss-hint").addEventListener("click", ssHint);
});
