"use strict";
// The Play view: a game against the bots through the server's /api/play (analyzer/faces/web/play.py).
// The page only shows the view the server sends (nothing the user's seat may not know is ever
// sent) and posts the id of the action clicked; every rule is the engine's.

const byId = (id) => document.getElementById(id);
let PLAY = null;                    // the current view (JSON of /api/play)

// (el(), exactJSON() and seedProblem() are app.js's: both scripts share the page's scope)
/** A call of the play API: `body` an object, or JSON text sent as it is (a game file's own
 * text, so that no seed in it passes through a JavaScript number); the answer read exactly. */
async function playCall(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"},
    body: typeof body === "string" ? body : JSON.stringify(body)};
  const r = await fetch(path, init);
  const text = await r.text();
  if (!r.ok) throw new Error(text.trim());
  return exactJSON(text);
}

function say(text, bad = false) {
  byId("play-status").textContent = text;
  byId("play-status").className = bad ? "bad" : "";
}

async function newGame() {
  const body = {players: Number(byId("play-players").value),
                expansion: byId("play-expansion").value};
  const opp = byId("play-opponents").value.trim();
  if (opp) body.opponents = opp.includes("(") ? opp : opp.split(",").map((s) => s.trim());
  if (byId("play-target").value) body.target = Number(byId("play-target").value);
  const seed = byId("play-seed").value.trim();
  const badSeed = seedProblem(seed, "the game's Seed");
  if (badSeed) {
    byId("play-seed").focus();
    return say(badSeed, true);
  }
  if (seed) body.seed = seed;           // its digits: the server reads them exactly
  try {
    show(await playCall("/api/play", body));
    say("");
  } catch (e) {
    say(e.message, true);
  }
}

/** A downloaded game file, played again by the server from its seed and actions. */
async function openGame(file) {
  const text = await file.text();
  let game = null;
  try { game = JSON.parse(text); } catch (e) { game = null; }
  if (game === null) return say(`${file.name}: not a game file (not JSON)`, true);
  try {                               // the file's own text: its seed is not rounded
    show(await playCall("/api/play", `{"game": ${text}}`));
    say(`${file.name}: the game at step ${PLAY.step}`);
  } catch (e) {
    say(e.message, true);
  }
}

async function act(id) {
  try {
    show(await playCall(`/api/play/${PLAY.id}`, {action: id, step: PLAY.step}));
    say("");
  } catch (e) {
    say(e.message, true);
  }
}

async function hint() {
  const box = byId("play-hint-box");
  say("asking the advisor…");
  try {
    const h = await playCall(`/api/play/${PLAY.id}/hint`);
    const pct = (r) => `${(100 * r.rate).toFixed(1)}% [${(100 * r.ci95[0]).toFixed(1)}, ${(100 * r.ci95[1]).toFixed(1)}]`;
    const order = h.ranking || Object.keys(h.options);
    byId("play-hint-table").replaceChildren(
      el("tr", {}, el("th", {}, "action"), el("th", {}, "P(win game)"), el("th", {}, "vs best")),
      ...order.map((k) => {
        const o = h.options[k];
        const vs = k === h.recommendation || !o.vs_best ? "best"
          : `${(100 * o.vs_best.mean).toFixed(1)} ±${(50 * (o.vs_best.ci95[1] - o.vs_best.ci95[0])).toFixed(1)}`;
        return el("tr", {}, el("td", {}, o.words), el("td", {}, pct(o.win_game)), el("td", {}, vs));
      }));
    byId("play-hint-text").textContent = h.explanation || h.reason;
    byId("play-hint-calibration").hidden = !h.calibration;      // the measured drift, if any
    byId("play-hint-calibration").textContent = h.calibration ? h.calibration.words.join(" ") : "";
    box.hidden = false;
    say(`hint: ${h.samples.toLocaleString()} sampled deals of what you cannot see`);
    document.body.dataset.hints = String(Number(document.body.dataset.hints || 0) + 1);
  } catch (e) {
    say(e.message, true);
  }
}

/** The review of the user's decisions so far, shown by the page's own "Game review" section
 * (app.js showReview, as a `seasalt review --json` file is). */
async function review() {
  say("reviewing your decisions…");
  try {
    const r = await playCall(`/api/play/${PLAY.id}/review`);
    showReview({...r, play_id: r.id});
    say(`review: ${r.decisions.length} decisions, shown under "Game review"`);
    byId("review").scrollIntoView({block: "start"});
    document.body.dataset.reviews = String(Number(document.body.dataset.reviews || 0) + 1);
  } catch (e) {
    say(e.message, true);
  }
}

/** A reviewed decision's moment: the view as it was (its actions shown, not playable), the
 * action taken marked; "Back to the game" returns to where the game stands. */
async function showMoment(gid, step) {
  try {
    const v = await playCall(`/api/play/${gid}/at/${step}`);
    byId("play-box").open = true;
    show(v, true);
    const taken = v.legal.find((a) => a.id === v.taken);
    say(`the moment of step ${step}${taken ? `: you chose “${taken.words}”` : ""}`);
    byId("play").scrollIntoView({block: "start"});
  } catch (e) {
    say(e.message, true);
  }
}

async function backToGame() {
  try {
    show(await playCall(`/api/play/${PLAY.id}`));
    say("");
  } catch (e) {
    say(e.message, true);
  }
}

function groups(table) {
  return table.length ? table.map((g) => g.join(" + ")).join("; ") : "nothing played";
}

let pending = [];                   // narrated lines not yet shown (one step at a time)

/** Show the next narrated line; the decision's buttons come back when none is left. */
function nextStep(all = false) {
  const log = byId("play-log");
  do log.append(el("li", {}, pending.shift())); while (all && pending.length);
  const waiting = pending.length > 0;
  byId("play-stepper").hidden = !waiting;
  byId("play-actions").hidden = waiting;
  byId("play-turn").hidden = waiting;
  document.body.dataset.playPending = String(pending.length);
}

function show(v, moment = false) {
  const before = PLAY && !moment && PLAY.id === v.id && PLAY.round === v.round ? PLAY.log.length : 0;
  PLAY = v;
  byId("play-back").hidden = !moment;
  byId("play-game").hidden = false;
  byId("play-hint-box").hidden = true;
  const you = v.seat;
  byId("play-head").textContent =
    `round ${v.round} · seed ${v.seed} · ${v.expansion} · game to ${v.target} · totals: ` +
    v.totals.map((t, q) => `${q === you ? "you" : "seat " + q} ${t}`).join(", ");
  byId("play-seats").replaceChildren(...v.totals.map((_, q) => el(
    "div", {class: "seat" + (v.turn && v.turn.seat === q ? " now" : "")},
    el("strong", {}, q === you ? `seat ${q} (you)` : `seat ${q}`),
    ` · ${v.hand_sizes[q]} in hand · table: ${groups(v.tables[q])}`)));
  byId("play-piles").textContent = `deck ${v.deck} · ` + v.piles.map(
    (p) => `pile ${p.pile}: ${p.top ? p.top : "empty"}${p.size > 1 ? ` (+${p.size - 1} below)` : ""}`).join(" · ");
  byId("play-hand").replaceChildren(...(v.hand.length ? v.hand.map((c) => el("span", {class: "chip"}, c))
    : [el("span", {class: "empty"}, "empty")]));
  byId("play-turn").textContent = v.over ? `Game over: ${v.result}` : v.turn.question;
  byId("play-actions").replaceChildren(...v.legal.map((a) => el(
    "button", {type: "button", class: "action" + (moment && a.id === v.taken ? " taken" : ""),
               "data-id": a.id, disabled: moment, onclick: () => act(a.id)}, a.words)));
  byId("play-hint").disabled = v.over || moment;
  byId("play-review").disabled = moment;
  byId("play-download").href = `/api/play/${v.id}/game`;
  const stepwise = byId("play-stepwise").checked && !moment && v.log.length > before;
  byId("play-log").replaceChildren(...v.log.slice(0, stepwise ? before : v.log.length).map(
    (t) => el("li", {}, t)));
  pending = stepwise ? v.log.slice(before) : [];
  if (stepwise) nextStep();
  else {
    byId("play-stepper").hidden = true;
    byId("play-actions").hidden = false;
    byId("play-turn").hidden = false;
    document.body.dataset.playPending = "0";
  }
  const last = v.last_round;
  byId("play-last").hidden = !last;
  if (last) byId("play-last-log").replaceChildren(...last.log.map((t) => el("li", {}, t)));
  byId("play-last").open = v.over;
  document.body.dataset.playStep = String(v.step);
  document.body.dataset.playMoment = String(moment);
  document.body.dataset.playOver = String(v.over);
  document.body.dataset.playViews = String(Number(document.body.dataset.playViews || 0) + 1);
}

/** The Target box's placeholder: the default target for the players chosen (CAT is app.js's). */
function showTargetDefault() {
  if (CAT) byId("play-target").placeholder = String(CAT.default_targets[byId("play-players").value]);
}

byId("play-players").addEventListener("change", showTargetDefault);
byId("play-box").addEventListener("toggle", showTargetDefault);
byId("play-new").addEventListener("click", newGame);
byId("play-hint").addEventListener("click", hint);
byId("play-review").addEventListener("click", review);
byId("play-back").addEventListener("click", backToGame);
byId("play-next").addEventListener("click", () => nextStep());
byId("play-all").addEventListener("click", () => nextStep(true));
byId("play-upload").addEventListener("change", (e) => {
  if (e.target.files.length) openGame(e.target.files[0]);
  e.target.value = "";
});
