"use strict";
// The seasalt advisor page. The page edits a position and writes it as the very file
// `seasalt advise` reads (toPosition); whether it is valid is always the server's word
// (POST /api/check, the CLI's own validation). The cards come from GET /api/catalogue.

const $ = (id) => document.getElementById(id);
let CAT = null;                    // the catalogue: kinds, colours, deck sizes, decisions
let S = null;                      // the position being edited (see blank())
let active = "hand";               // the zone the picker adds to
let last = null;                   // the last advice shown (its JSON)
let lastPosition = null;           // ... and the position it answered (as JSON text)
let checkId = 0, checkTimer = null, busy = false;
let asked = false;                  // the user has asked (Advise, an import): errors may show

// ---------------------------------------------------------------------------------------------
// state

function blank(players = 2, seat = 0, expansion = "base") {
  const s = {players, seat, expansion, decision: CAT.decisions[0].id, hand: [], table: [],
             drawn: [], seen: [], crabPile: "",
             opp: {}, piles: {}, deckManual: false, deck: 0, useTotals: false,
             totals: [0, 0, 0, 0], target: CAT.default_targets[players], lock: null,
             history: null};      // the round's public turns, as a position file gives them
  for (const p of CAT.piles) s.piles[p] = {mode: "top", size: 0, top: [], cards: []};
  fillSeats(s);
  return s;
}

function fillSeats(s) {
  for (const q of seatsOf(s)) s.opp[q] ??= {table: [], known: [], hand_size: 0};
}

function seatsOf(s) {
  return [...Array(s.players).keys()].filter((q) => q !== s.seat);
}

function pileSize(p) {
  return p.mode === "top" ? p.size : p.cards.length;
}

function deckComputed(s = S) {
  let placed = s.hand.length + s.table.length;
  if (s.decision === "keep") placed += s.drawn.length;       // drawn: out of the deck
  if (s.decision === "lobster") placed += s.seen.length;     // revealed: besides the deck
  for (const q of seatsOf(s)) placed += s.opp[q].hand_size + s.opp[q].table.length;
  for (const p of CAT.piles) placed += pileSize(s.piles[p]);
  return CAT.expansions[s.expansion] - placed;
}

/** Every place cards are put: id -> {label, cards (the state's own array), max}. */
function zones() {
  const z = {hand: {label: "my hand", cards: S.hand}, table: {label: "my table", cards: S.table},
             drawn: {label: "the two cards drawn", cards: S.drawn, max: 2,
                     shown: S.decision === "keep"},
             seen: {label: "the cards revealed", cards: S.seen, max: 5,
                    shown: S.decision === "lobster"}};
  for (const q of seatsOf(S)) {
    z[`opp${q}.table`] = {label: `seat ${q}'s table`, cards: S.opp[q].table};
    z[`opp${q}.known`] = {label: `cards known in seat ${q}'s hand`, cards: S.opp[q].known};
  }
  for (const p of CAT.piles) {
    const pile = S.piles[p];
    z[`pile${p}.top`] = {label: `pile ${p}'s top`, cards: pile.top, max: 1,
                         shown: pile.mode === "top"};
    z[`pile${p}.cards`] = {label: `pile ${p}`, cards: pile.cards, shown: pile.mode === "cards"};
  }
  return z;
}

function used() {
  const n = {};
  for (const z of Object.values(zones())) {
    if (z.shown === false) continue;
    for (const c of z.cards) n[c] = (n[c] || 0) + 1;
  }
  return n;
}

/** The position file `seasalt advise` reads. */
function toPosition(s = S) {
  const list = (a) => a.join(",");
  const pos = {players: s.players, seat: s.seat, expansion: s.expansion};
  if (s.decision !== "play") pos.decision = s.decision;
  pos.hand = list(s.hand);
  if (s.table.length) pos.table = list(s.table);
  if (s.decision === "keep") pos.drawn = list(s.drawn);
  if (s.decision === "lobster") pos.seen = list(s.seen);
  if (s.decision === "crab" && s.crabPile) pos.crab_pile = s.crabPile;
  pos.opponents = seatsOf(s).map((q) => {
    const o = s.opp[q], out = {seat: q};
    if (o.table.length) out.table = list(o.table);
    out.hand_size = o.hand_size;
    if (o.known.length) out.known = list(o.known);
    return out;
  });
  pos.piles = {};
  for (const p of CAT.piles) {
    const pile = s.piles[p];
    if (pile.mode === "cards") pos.piles[p] = {cards: list(pile.cards)};
    else pos.piles[p] = pile.size || pile.top.length ? {size: pile.size, top: list(pile.top)} : {size: 0};
  }
  pos.deck = s.deckManual ? s.deck : deckComputed(s);
  if (s.useTotals) {
    pos.totals = s.totals.slice(0, s.players);
    pos.target = s.target;
  }
  if (s.lock !== null) pos.lock = s.lock;
  if (s.history) pos.history = s.history;
  return pos;
}

/** A state from a position whose card lists the server made canonical (POST /api/cards). */
function fromPosition(p) {
  const seats = Object.keys(CAT.default_targets).map(Number);
  if (!seats.includes(p.players) || !Number.isInteger(p.seat) || p.seat < 0 || p.seat >= p.players ||
      !((p.expansion ?? "base") in CAT.expansions)) throw new Error("not shown");   // the server says why
  const s = blank(p.players, p.seat, p.expansion ?? "base");
  if (p.decision !== undefined) {
    if (!CAT.decisions.some((d) => d.id === p.decision)) throw new Error("not shown");
    s.decision = p.decision;
  }
  s.drawn = [...(p.drawn ?? [])];
  s.seen = [...(p.seen ?? [])];
  s.crabPile = p.crab_pile ?? "";
  s.hand = [...(p.hand ?? [])];
  s.table = [...(p.table ?? [])];
  for (const o of p.opponents) {
    s.opp[o.seat] = {table: [...(o.table ?? [])], known: [...(o.known ?? [])],
                     hand_size: o.hand_size};
  }
  for (const name of CAT.piles) {
    const x = p.piles[name], pile = s.piles[name];
    if (!x) continue;
    if ("cards" in x) Object.assign(pile, {mode: "cards", cards: [...x.cards]});
    else Object.assign(pile, {mode: "top", size: x.size ?? 0, top: [...(x.top ?? [])]});
  }
  s.deck = p.deck;
  s.deckManual = p.deck !== deckComputed(s);
  if ("totals" in p || "target" in p) {
    s.useTotals = true;
    (p.totals ?? []).forEach((v, q) => { s.totals[q] = v; });
    s.target = p.target;
  }
  s.lock = p.lock ?? null;
  s.history = p.history ?? null;
  return s;
}

// ---------------------------------------------------------------------------------------------
// the server

async function post(path, body) {
  const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                               body: typeof body === "string" ? body : JSON.stringify(body)});
  const text = await r.text();
  return {ok: r.ok, status: r.status, text};
}

/** JSON text read with every "seed" of 16 digits or more kept as its digits (a string): a
 * JavaScript number holds whole numbers exactly only up to 2**53, and a seed goes up to
 * 2**64-1, so the seed shown (and asked again) is exactly the run's. */
function exactJSON(text) {
  return JSON.parse(text.replace(/("seed"\s*:\s*)(\d{16,})(?=\s*[,}\]])/g, '$1"$2"'));
}

const MAX_SEED = 18446744073709551615n;      // 2**64-1, the seeds' range (analyzer.rules.limits)

/** The message for a seed box's text (`control`: the box's name), or "" when the text is empty
 * (a fresh seed) or a whole number from 0 to 2**64-1. */
function seedProblem(text, control) {
  if (text === "" || (/^[0-9]{1,20}$/.test(text) && BigInt(text) <= MAX_SEED)) return "";
  return `error: ${control} must be a whole number from 0 to ${MAX_SEED} (or empty for a ` +
    `random seed), got “${text.slice(0, 30)}”`;
}

/** The server's verdict on a position: {valid, error, description}. */
async function verdict(pos) {
  const r = await post("/api/check", pos);
  return r.ok ? JSON.parse(r.text) : {valid: false, error: r.text.trim()};
}

function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(runCheck, 120);
}

async function runCheck() {
  const id = ++checkId;
  const v = await verdict(toPosition());
  if (id !== checkId) return;                     // a newer check is on its way
  const box = $("check");
  if (!v.valid && !asked) {          // no error before the user has asked anything
    box.className = "check";
    box.textContent = "Tap the cards you see into their places, then press Advise.";
    return;
  }
  box.className = v.valid ? "check ok" : "check bad";
  box.textContent = v.valid ? `Ready: ${v.description}.` : v.error;
}

// ---------------------------------------------------------------------------------------------
// building the page

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) e.append(c);
  return e;
}

const pretty = (word) => word.replaceAll("_", " ");
const SHORT = {dark_blue: "dk blue", light_blue: "lt blue", light_orange: "lt orange"};  // phones

function cardInfo(name) {
  for (const k of CAT.kinds) for (const c of k.cards) if (c.name === name) return {kind: k, card: c};
  return null;
}

function cardLabel(name) {
  const info = cardInfo(name);
  if (!info) return name;
  return info.kind.cards.length > 1 ? `${pretty(info.kind.kind)} ${pretty(info.card.colour)}`
                                    : pretty(info.kind.kind);
}

function allowed(kind) {
  const ex = Object.keys(CAT.expansions);
  return ex.indexOf(kind.expansion) <= ex.indexOf(S.expansion);
}

function buildPicker() {
  const grid = $("picker-grid");
  grid.replaceChildren();
  const groups = {mermaid: "Mermaids", duo: "Duos", collector: "Collectors",
                  multiplier: "Multipliers", special: "Extra Salt specials"};
  for (const [category, title] of Object.entries(groups)) {
    const kinds = CAT.kinds.filter((k) => k.category === category && allowed(k));
    if (!kinds.length) continue;
    const box = el("div", {class: "group"}, el("h3", {}, title));
    const singles = el("div", {class: "singles"});
    const button = (k, c) => el("button", {type: "button", class: "card", "data-card": c.name,
                                           "data-colour": c.colour, onclick: () => addCard(c.name)},
      el("span", {class: "sw", "aria-hidden": "true"}),
      ...(k.cards.length > 1 ? [el("span", {class: "cname full"}, pretty(c.colour)),
                                el("span", {class: "cname short", "aria-hidden": "true"}, SHORT[c.colour] ?? pretty(c.colour))]
                             : [el("span", {class: "cname"}, pretty(k.kind))]),
      el("span", {class: "left"}));
    for (const k of kinds) {
      if (k.cards.length === 1) {
        singles.append(button(k, k.cards[0]));
        continue;
      }
      box.append(el("div", {class: "kind", role: "group", "aria-label": pretty(k.kind)},
                    el("span", {class: "kind-name"}, pretty(k.kind)),
                    el("div", {class: "colours"}, ...k.cards.map((c) => button(k, c)))));
    }
    if (singles.children.length) box.append(singles);
    grid.append(box);
  }
  $("picker-hint").textContent = S.expansion === "base"
    ? "Extra Salt cards appear when you choose that expansion." : "";
}

function updatePicker() {
  const n = used();
  for (const b of document.querySelectorAll("#picker-grid .card")) {
    const name = b.dataset.card, left = cardInfo(name).card.copies - (n[name] || 0);
    b.querySelector(".left").textContent = left;
    b.setAttribute("aria-disabled", left <= 0 ? "true" : "false");
    b.setAttribute("aria-label", `${cardLabel(name)}, ${left} left`);
    b.classList.toggle("none", left <= 0);
  }
  const z = zones()[active];
  $("target-name").textContent = z ? z.label : "";
  renderChips($("target-cards"), active);
}

/** A zone element: a heading, the button that makes it the picker's target, its cards. */
function zoneBox(id, title, note = "") {
  const box = el("div", {class: "zone", "data-zone": id});
  box.append(el("div", {class: "zone-head"},
                el("h3", {}, title, note ? el("small", {}, note) : ""),
                el("button", {type: "button", class: "small target", "aria-pressed": "false",
                              onclick: () => setActive(id)}, "add here")),
             el("div", {class: "chips"}));
  return box;
}

function stepper(label, value, min, max, onchange) {
  const input = el("input", {type: "number", min, max, value, "aria-label": label});
  const set = (v) => {
    v = Math.max(min, Math.min(max, Number.isFinite(v) ? Math.trunc(v) : min));
    input.value = v;
    onchange(v);
  };
  input.addEventListener("change", () => set(parseInt(input.value, 10)));
  return el("span", {class: "stepper"},
            el("button", {type: "button", class: "small", "aria-label": `${label}: one fewer`,
                          onclick: () => set(parseInt(input.value, 10) - 1)}, "−"),
            input,
            el("button", {type: "button", class: "small", "aria-label": `${label}: one more`,
                          onclick: () => set(parseInt(input.value, 10) + 1)}, "+"));
}

function buildSeats() {
  const seat = $("seat");
  seat.replaceChildren(...[...Array(S.players).keys()].map((q) => el("option", {value: q}, `seat ${q}`)));
  seat.value = S.seat;
  const box = $("opponents");
  keepPicker();
  box.replaceChildren();
  for (const q of seatsOf(S)) {
    const o = S.opp[q];
    box.append(el("fieldset", {class: "box opponent"}, el("legend", {}, `Seat ${q}`),
                  zoneBox(`opp${q}.table`, "Table"),
                  el("div", {class: "field"}, "Cards in hand ",
                     stepper(`seat ${q} hand size`, o.hand_size, 0, CAT.max_deck,
                             (v) => { o.hand_size = v; changed(); })),
                  zoneBox(`opp${q}.known`, "Known in that hand", "(seen taken from a pile)")));
  }
  buildTotals();
  buildLock();
}

function buildPiles() {
  const box = $("piles");
  keepPicker();
  box.replaceChildren();
  for (const p of CAT.piles) {
    const pile = S.piles[p];
    const radio = (mode, text) => el("label", {class: "inline"},
      el("input", {type: "radio", name: `mode${p}`, value: mode, checked: pile.mode === mode,
                   onchange: () => setPileMode(p, mode)}), text);
    const top = el("div", {class: "pile-top", hidden: pile.mode !== "top"},
                   el("div", {class: "field"}, "Cards in the pile ",
                      stepper(`pile ${p} size`, pile.size, 0, CAT.max_deck,
                              (v) => { pile.size = v; changed(); })),
                   zoneBox(`pile${p}.top`, "Top card"));
    const all = el("div", {class: "pile-cards", hidden: pile.mode !== "cards"},
                   zoneBox(`pile${p}.cards`, "Its cards", "(bottom first, the top last)"));
    box.append(el("fieldset", {class: "box pile", "data-pile": p}, el("legend", {}, `Pile ${p}`),
                  el("div", {class: "modes", role: "radiogroup", "aria-label": `what I know of pile ${p}`},
                     radio("top", "its size and top"), radio("cards", "every card (remembered)")),
                  top, all));
  }
}

function buildTotals() {
  const box = $("totals");
  box.hidden = !S.useTotals;
  $("use-totals").checked = S.useTotals;
  box.replaceChildren();
  for (let q = 0; q < S.players; q++) {
    box.append(el("label", {}, `seat ${q}${q === S.seat ? " (me)" : ""} `,
                  el("input", {type: "number", min: 0, value: S.totals[q], class: "total",
                               onchange: (e) => { S.totals[q] = parseInt(e.target.value, 10) || 0; changed(); }})));
  }
  box.append(el("label", {}, "target ",
                el("input", {type: "number", min: 1, value: S.target, id: "target",
                             onchange: (e) => { S.target = parseInt(e.target.value, 10) || 0; changed(); }})));
}

function buildLock() {
  $("lock-box").hidden = !CAT.kinds.some((k) => k.kind === "jellyfish" && allowed(k));
  const lock = $("lock");
  lock.replaceChildren(el("option", {value: ""}, "nobody"),
    ...[...Array(S.players).keys()].map((q) => el("option", {value: q}, `seat ${q}${q === S.seat ? " (me)" : ""}`)));
  lock.value = S.lock === null ? "" : S.lock;
}

/** The fields the chosen decision needs (the catalogue's `keys`): the two cards drawn, the cards
 * revealed, the pile of a crab search. */
function buildDecision() {
  const box = $("decision-fields");
  keepPicker();
  box.replaceChildren();
  const chosen = CAT.decisions.find((d) => d.id === S.decision);
  $("decision-question").textContent = chosen?.question ?? "";
  const keys = chosen?.keys ?? [];
  if (keys.includes("drawn")) {
    box.append(zoneBox("drawn", "The two cards drawn", "(the first drawn first)"));
  }
  if (keys.includes("seen")) {
    box.append(zoneBox("seen", "The cards revealed", "(the deck's top first; 5, or all it had)"));
  }
  if (keys.includes("crab_pile")) {
    const pick = el("select", {id: "crab-pile", onchange: (e) => { S.crabPile = e.target.value; changed(); }},
                    el("option", {value: ""}, "not chosen yet (or a card I remember)"),
                    ...CAT.piles.map((p) => el("option", {value: p}, `pile ${p} (list its cards)`)));
    pick.value = S.crabPile;
    box.append(el("label", {class: "wide"}, "Looking through ", pick));
  }
  box.hidden = keys.length === 0;
}

/** Everything built from the state, for a new or loaded state. */
function buildAll() {
  $("players").value = S.players;
  $("expansion").value = S.expansion;
  $("decision").value = S.decision;
  buildDecision();
  $("deck-manual").checked = S.deckManual;
  keepPicker();
  $("mine").replaceChildren(zoneBox("hand", "My hand"), zoneBox("table", "My table", "(pairs played)"));
  buildPicker();
  buildSeats();
  buildPiles();
  if (!zones()[active] || zones()[active].shown === false) active = "hand";
  setActive(active, false);
  const turns = S.history ? S.history.length : 0;      // only a file's history is read
  $("reading-box").hidden = !turns;
  $("reading-turns").textContent = `${turns} turn${turns === 1 ? "" : "s"}`;
  changed();
}

// ---------------------------------------------------------------------------------------------
// editing

function setActive(id, focusPicker = true) {
  active = id;
  for (const b of document.querySelectorAll(".zone")) {
    const on = b.dataset.zone === id;
    b.classList.toggle("active", on);
    const t = b.querySelector(".target");
    if (t) {
      t.setAttribute("aria-pressed", on ? "true" : "false");
      t.textContent = on ? "adding here" : "add here";
    }
  }
  updatePicker();
  placePicker();
  if (focusPicker) showPicker(true);
  if (focusPicker && NARROW.matches) $("picker").scrollIntoView({block: "nearest"});
}

// On a phone the cards open under the place they are added to; on a wide screen, beside the form.
const NARROW = window.matchMedia("(max-width: 899px)");

function showPicker(open) {
  $("picker-grid").hidden = !open;
  $("picker-toggle").setAttribute("aria-expanded", open ? "true" : "false");
  $("picker-toggle").textContent = open ? "hide" : "show";
}

/** Before a part of the form is rebuilt: the picker back to its own place, out of harm's way. */
function keepPicker() {
  $("picker-slot").append($("picker"));
}

function placePicker() {
  const picker = $("picker");
  const zone = document.querySelector(`#position .zone[data-zone="${active}"]`);
  if (NARROW.matches && zone) {
    if (zone.nextElementSibling !== picker) zone.after(picker);
  } else if (picker.parentElement !== $("picker-slot")) {
    $("picker-slot").append(picker);
  }
}

function addCard(name) {
  const z = zones()[active];
  if (!z) return;
  const left = cardInfo(name).card.copies - (used()[name] || 0);
  if (left <= 0) return;                 // greyed: every copy is placed
  if (z.max === 1) {
    z.cards.splice(0, z.cards.length, name);
    const pile = active.match(/^pile(\w+)\.top$/);
    if (pile && S.piles[pile[1]].size === 0) { S.piles[pile[1]].size = 1; buildPiles(); setActive(active, false); }
  } else if (z.max && z.cards.length >= z.max) {
    return;                              // full: remove one first
  } else {
    z.cards.push(name);
  }
  changed();
}

function removeCard(id, index) {
  zones()[id].cards.splice(index, 1);
  changed();
}

function setPileMode(p, mode) {
  const pile = S.piles[p];
  if (pile.mode === mode) return;
  if (mode === "cards") {
    pile.cards = pile.size === pile.top.length ? [...pile.top] : pile.cards;
  } else {
    pile.size = pile.cards.length;
    pile.top = pile.cards.slice(-1);
  }
  pile.mode = mode;
  const was = active;
  buildPiles();
  active = was.startsWith(`pile${p}.`) ? `pile${p}.${mode === "top" ? "top" : "cards"}` : was;
  setActive(active, false);
  changed();
}

function renderChips(box, id) {
  const z = zones()[id];
  box.replaceChildren();
  if (!z) return;
  if (!z.cards.length) box.append(el("span", {class: "empty"}, "none"));
  z.cards.forEach((name, i) => {
    box.append(el("button", {type: "button", class: "chip", "data-card": name,
                             "data-colour": cardInfo(name)?.card.colour ?? "",
                             "aria-label": `remove ${cardLabel(name)} from ${z.label}`,
                             onclick: () => {
                               removeCard(id, i);
                               const next = box.querySelectorAll(".chip")[Math.min(i, z.cards.length - 1)];
                               (next || box.closest(".zone")?.querySelector(".target") || $("target-name")).focus?.();
                             }},
                          el("span", {class: "sw", "aria-hidden": "true"}), cardLabel(name),
                          el("span", {class: "x", "aria-hidden": "true"}, "×")));
  });
}

/** After any edit: redraw the cards, the counts and the deck, save to the URL, ask the server. */
function changed() {
  for (const box of document.querySelectorAll("#position .zone")) {
    renderChips(box.querySelector(".chips"), box.dataset.zone);
  }
  updatePicker();
  placePicker();
  const computed = deckComputed();
  $("deck-computed").textContent = computed;
  $("deck-total").textContent = CAT.expansions[S.expansion];
  const deck = $("deck");
  deck.disabled = !S.deckManual;
  if (!S.deckManual) S.deck = computed;
  if (document.activeElement !== deck) deck.value = S.deck;
  const pos = toPosition();
  $("json").value = JSON.stringify(pos, null, 2);
  history.replaceState(null, "", "#position=" + encodeLink(pos));
  markStale();
  scheduleCheck();
}

/** An advice shown for another position than the one on the page says so. */
function markStale() {
  const stale = last !== null && JSON.stringify(toPosition()) !== lastPosition;
  $("stale").hidden = !stale;
  $("more").disabled = last === null || busy || stale;
}

function encodeLink(pos) {
  const bytes = new TextEncoder().encode(JSON.stringify(pos));
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function decodeLink(text) {
  const bin = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return new TextDecoder().decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}

// ---------------------------------------------------------------------------------------------
// import: the server reads the cards and judges; the page loads only what it can show faithfully

// What the page can show: every decision (the catalogue's) and these keys.
const PAGE_KEYS = new Set(["players", "seat", "expansion", "decision", "hand", "table", "drawn",
                           "seen", "crab_pile", "opponents", "piles", "deck", "totals", "target",
                           "lock", "history"]);
const PILE_KEYS = new Set(["size", "top", "cards"]);

/** Why the page cannot show this position file faithfully (null if it can): the page never
 * changes the question or drops what the file says. */
function beyondThePage(text) {
  let p;
  try { p = JSON.parse(text.replace(/^\s*\/\/.*$/gm, "")); } catch (e) { return null; }  // the server says why
  if (p === null || typeof p !== "object" || Array.isArray(p)) return null;
  const cli = "ask it with seasalt advise FILE";
  for (const key of Object.keys(p)) {
    if (!PAGE_KEYS.has(key)) return `this page cannot show "${key}": ${cli}`;
  }
  if (p.deck !== null && typeof p.deck === "object") return `this page cannot show a deck with known cards: ${cli}`;
  for (const [name, pile] of Object.entries(p.piles ?? {})) {
    if (pile === null || typeof pile !== "object") continue;
    for (const key of Object.keys(pile)) {
      if (!PILE_KEYS.has(key)) return `this page cannot show "${key}" of pile ${name}: ${cli}`;
    }
    const cards = Array.isArray(pile.cards) ? pile.cards : String(pile.cards ?? "").split(",");
    if (cards.some((c) => String(c).trim() === "?")) {
      return `this page cannot show a card of pile ${name} you do not remember ("?"): ${cli}`;
    }
  }
  return null;
}

async function importText(text, where) {
  asked = true;                      // a file is a question: what it lacks may be said
  const status = $("file-status");
  let parsed = null;
  try { parsed = exactJSON(text); } catch (e) { parsed = null; }
  if (isReview(parsed)) {
    showReview(parsed);
    status.className = "ok";
    status.textContent = `${where}: a game review, shown under "Game review".`;
    return true;
  }
  const beyond = beyondThePage(text);
  if (beyond !== null) {
    status.className = "bad";
    status.textContent = `${where}: not loaded: ${beyond}`;
    return false;
  }
  const r = await post("/api/cards", text);
  if (!r.ok) {
    status.className = "bad";
    status.textContent = `${where}: ${r.text.trim()}`;
    return false;
  }
  const canon = JSON.parse(r.text);
  const said = (await verdict(canon)).error;
  let s = null;
  try { s = fromPosition(canon); } catch (e) { s = null; }
  if (s === null || (await verdict(toPosition(s))).error !== said) {
    status.className = "bad";
    status.textContent = `${where}: not loaded: ${said ?? "this page cannot show that position"}`;
    return false;
  }
  S = s;
  buildAll();
  status.className = said ? "bad" : "ok";
  status.textContent = said ? `${where}: loaded, but ${said}` : `${where}: loaded.`;
  return true;
}

// ---------------------------------------------------------------------------------------------
// advice

const PCT = (x) => `${(100 * x).toFixed(1)}%`;
const NUM = (x) => x.toFixed(2);
const SIGNED = (x) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(2);
// key, words, scale (rate: 0..1, lead: shared, none: text only)
const METRICS = [
  ["win_game", "chance to win the game", "rate"],
  ["win_bet", "chance the LAST CHANCE bet is won", "rate"],
  ["margin", "lead over the best opponent this round", "lead"],
  ["points", "my points this round", "none"],
  ["best_opponent_points", "the best opponent's points", "none"],
];

/** The answer of one model pair: the advice itself, or a robust answer's first pair. */
const single = (a) => (a.rows ? a.advice[0] : a);
const PP = (d) => `${d.mean >= 0 ? "+" : "−"}${Math.abs(100 * d.mean).toFixed(1)}`;
const PPCI = (d) => `[${(100 * d.ci95[0]).toFixed(1)}, ${(100 * d.ci95[1]).toFixed(1)}]`;

async function advise(samples, seed) {
  if (busy) return;
  const badSeed = seedProblem(seed, "Seed");
  if (badSeed) {
    $("status").className = "bad";
    $("status").textContent = badSeed;
    $("seed").focus();
    return;
  }
  const params = new URLSearchParams();
  const precision = $("precision").value.trim();
  if (precision) params.set("precision", precision);
  else if (samples) params.set("samples", samples);    // none: the default (samplesShown)
  if (seed !== "") params.set("seed", seed);
  for (const [id, key] of [["opponent", "opponent"], ["me", "me"]]) {
    const v = $(id).value.trim();
    if (v && v !== "baseline") params.set(key, v);
  }
  if ($("robust").checked) params.set("robust", "1");
  if (!$("play-on").checked) params.set("no-play-on", "1");
  if (S.history && !$("reading").checked) params.set("reading", "off");
  const pos = toPosition();
  if (!asked) { asked = true; runCheck(); }
  busy = true;
  $("advise").disabled = $("more").disabled = true;
  const status = $("status");
  status.className = "";
  const t0 = performance.now();
  const what = precision ? `to a precision of ${precision}`
    : `${Number(samples || samplesShown()).toLocaleString("en-US")} deals${$("robust").checked ? " per model pair" : ""}`;
  const tick = setInterval(() => {
    status.textContent = `Sampling ${what}… ${((performance.now() - t0) / 1000).toFixed(1)} s`;
  }, 100);
  status.textContent = `Sampling ${what}…`;
  try {
    const r = await post("/api/advise?" + params, pos);
    const seconds = (performance.now() - t0) / 1000;
    if (!r.ok) {
      status.className = "bad";
      status.textContent = r.text.trim();
      return;
    }
    last = exactJSON(r.text);
    lastPosition = JSON.stringify(pos);
    status.textContent = "";
    showAdvice(last, r.text, seconds);
  } catch (e) {
    status.className = "bad";
    status.textContent = `error: the server did not answer (${e.message})`;
  } finally {
    clearInterval(tick);
    // for scripts/bench_serve.py and the tests: how long the answer took, how many came
    document.body.dataset.answerMs = (performance.now() - t0).toFixed(1);
    document.body.dataset.answers = String(Number(document.body.dataset.answers || 0) + 1);
    busy = false;
    $("advise").disabled = false;
    markStale();
  }
}

function showAdvice(all, text, seconds) {
  const a = single(all);
  $("result").hidden = false;
  $("recommendation").replaceChildren("Recommendation: ", el("strong", {}, a.options[a.recommendation].words));
  $("reason").textContent = a.reason;
  $("game").textContent = a.game.new_game ? `P(win game) ${a.game.words}.`
    : `P(win game) from the totals ${a.game.totals.join(", ")} to ${a.game.target}.`;
  $("calibration").hidden = !a.calibration;          // the measured drift against these opponents
  $("calibration").textContent = a.calibration ? a.calibration.words.join(" ") : "";
  const keys = a.ranking;
  // the lead bars share one scale, with zero in it
  let lo = 0, hi = 0;
  for (const k of keys) {
    const m = a.options[k].margin;
    if (m) { lo = Math.min(lo, m.ci95[0]); hi = Math.max(hi, m.ci95[1]); }
  }
  const span = hi - lo || 1;
  const box = $("options");
  box.replaceChildren();
  for (const k of keys) {
    const o = a.options[k];
    const card = el("div", {class: "option" + (k === a.recommendation ? " best" : ""), "data-option": k},
                    el("h3", {}, o.words,
                       k === a.recommendation ? el("span", {class: "badge"}, "recommended") : ""));
    for (const [key, words, scale] of METRICS) {
      const v = o[key];
      if (!v) continue;
      const rate = "rate" in v, x = rate ? v.rate : v.mean, [l, h] = v.ci95;
      const shown = rate ? PCT(x) : key === "margin" ? SIGNED(x) : NUM(x);
      const ci = rate ? `[${(100 * l).toFixed(1)}, ${(100 * h).toFixed(1)}]` : `[${NUM(l)}, ${NUM(h)}]`;
      const row = el("div", {class: "metric", "data-metric": key},
                     el("span", {class: "mlabel"}, words),
                     el("span", {class: "value"}, shown), " ", el("span", {class: "ci"}, ci));
      if (scale !== "none") {
        const at = (t) => `${(100 * (scale === "rate" ? t : (t - lo) / span)).toFixed(2)}%`;
        const zero = scale === "rate" ? 0 : -lo / span;
        const fill = el("div", {class: "fill"}), whisker = el("div", {class: "whisker"});
        const from = Math.min(zero, scale === "rate" ? x : (x - lo) / span);
        const to = Math.max(zero, scale === "rate" ? x : (x - lo) / span);
        fill.style.left = `${(100 * from).toFixed(2)}%`;
        fill.style.width = `${(100 * (to - from)).toFixed(2)}%`;
        whisker.style.left = at(l);
        whisker.style.width = `calc(${at(h)} - ${at(l)})`;
        const bar = el("div", {class: "bar", "aria-hidden": "true"}, fill, whisker);
        if (scale === "lead") {
          const z = el("div", {class: "zero"});
          z.style.left = `${(100 * zero).toFixed(2)}%`;
          bar.append(z);
        }
        row.append(bar);
      }
      card.append(row);
      if (key === "win_game") {                 // vs best: in P(win game), points of %
        const best = k === a.recommendation;
        card.append(el("div", {class: "metric", "data-metric": "vs_best"},
                       el("span", {class: "mlabel"}, "vs best (points of %)"),
                       el("span", {class: "value"}, best ? "best" : PP(o.vs_best)), " ",
                       el("span", {class: "ci"}, best ? "" : PPCI(o.vs_best))));
      }
    }
    box.append(card);
  }
  // words never claim more than the intervals allow: the paired difference to the best
  const close = keys.filter((k) => k !== a.recommendation && a.options[k].vs_best.ci95[1] >= 0);
  if (close.length) {
    box.append(el("p", {class: "warn"},
      `${a.options[a.recommendation].words} is not told apart from ` +
      `${close.map((k) => a.options[k].words).join(" and ")} at this sample size. More samples ` +
      "narrow the intervals."));
  }
  showReading(a);
  showRobust(all);
  const t = a.timing;
  const models = all.rows ? `${all.rows.length} model pairs, ${all.advice.reduce((s, x) => s + x.timing.seconds, 0).toFixed(2)} s computing`
    : `${t.seconds.toFixed(2)} s computing`;
  $("run").textContent = `${a.samples.toLocaleString("en-US")} sampled deals · seed ${a.seed} · ` +
    `${models}, ${seconds.toFixed(2)} s in all · opponents ${a.opponent} · ` +
    `95% intervals in brackets · seasalt ${a.version}`;
  $("raw").textContent = text;
}

/** With the round's history: the verdict reading the opponents' hands, and the one without
 * when they differ (what `seasalt advise --reading` prints), with the effective sample size and
 * which model each opponent's choices fit. */
function showReading(a) {
  const r = a.reading;
  $("reading-result").hidden = !r;
  if (!r) return;
  const n = (x) => Math.round(x).toLocaleString("en-US");
  $("reading-note").textContent = `Reading the opponents' hands as ${r.model} (tremble ` +
    `${r.tremble}): ${r.observations} choice${r.observations === 1 ? "" : "s"} of theirs read; ` +
    `effective sample size ${n(r.ess)} of ${n(r.samples)} deals.` +
    r.fit.map((f) => ` Seat ${f.seat}'s choices read as: ` + f.models.map((m) =>
      `${m.model.split("(")[0]} ${Math.round(100 * m.share)}% [${Math.round(100 * m.ci95[0])}, ` +
      `${Math.round(100 * m.ci95[1])}]`).join(" · ") + ".").join("");
  const w = r.without, flip = $("reading-flip");
  if (r.flips) {
    const g = w.win_game[w.recommendation];
    flip.replaceChildren("Reading changes the verdict. Without reading: ",
      el("strong", {}, a.options[w.recommendation].words),
      ` (P(win game) ${PCT(g.rate)} [${(100 * g.ci95[0]).toFixed(1)}, ` +
      `${(100 * g.ci95[1]).toFixed(1)}]).`);
  } else {
    flip.textContent = "Without reading the recommendation is the same.";
  }
  flip.className = r.flips ? "warn" : "";
}

/** The robust answer: per model pair the best action, its P(win game) and its lead over the
 * runner-up, then the verdict (what `seasalt advise --robust` prints). */
function showRobust(all) {
  const box = $("robust-result");
  box.hidden = !all.rows;
  if (!all.rows) return;
  const short = (spec) => spec.split("(")[0];
  const heads = ["you", "opponents", "best action", "P(win game)", "vs next"];
  const head = el("tr", {}, ...heads.map((h) => el("th", {scope: "col"}, h)));
  // each cell carries its column's name: a phone shows a row as labelled lines (style.css)
  const cells = (r) => [short(r.me), short(r.opponent), r.words,
    `${PCT(r.win_game.rate)} ${PPCI(r.win_game)}`,
    r.vs_runner_up ? `${PP({mean: -r.vs_runner_up.mean})} ` +
      `[${(-100 * r.vs_runner_up.ci95[1]).toFixed(1)}, ${(-100 * r.vs_runner_up.ci95[0]).toFixed(1)}]` : "-"];
  const rows = all.rows.map((r) => el("tr", {"data-best": r.best},
    ...cells(r).map((text, i) => el("td", {"data-label": heads[i]}, text))));
  $("robust-table").replaceChildren(el("thead", {}, head), el("tbody", {}, ...rows));
  $("verdict").replaceChildren("Verdict: ", el("strong", {}, all.verdict));
}

// ---------------------------------------------------------------------------------------------
// a game review (what `seasalt review --json` prints): its decisions, the costliest first

// a long review: the costliest REVIEW_OPEN decisions in full, up to REVIEW_SHOWN folded, the rest
// behind one button
const REVIEW_OPEN = 5, REVIEW_SHOWN = 15;

function isReview(r) {
  return r !== null && typeof r === "object" && Array.isArray(r.decisions) &&
         typeof r.summary === "object" && Number.isInteger(r.seat) && "stream" in r;
}

/** Each decision with the advisor's ranking (by P(win game) as measured), the choice made and
 * its loss (the advisor's choice's P(win game) minus the choice's, with its interval). */
function showReview(r) {
  const order = r.decisions.map((d, i) => [d, i])
    .sort((a, b) => b[0].loss.mean - a[0].loss.mean || a[1] - b[1]);
  const s = r.summary;
  $("review-head").textContent =
    `Seat ${r.seat} of a ${r.players}-player game, seed ${r.seed}, ${r.expansion} deck, game to ` +
    `${r.target}: ${r.decisions.length} decisions, ${s.same_as_advisor} as the advisor would ` +
    `choose, ${s.distinguishably_worse} distinguishably worse; an error rate of ` +
    `${s.error_rate >= 0 ? "+" : ""}${(100 * s.error_rate).toFixed(2)} ` +
    `[${(100 * s.error_rate_lo).toFixed(2)}, ${(100 * s.error_rate_hi).toFixed(2)}] points ` +
    `a decision with a choice (the mean loss). ` +
    `The costliest first; the loss is ` +
    `the advisor's choice's P(win game) minus the choice made's, in points of %, with its 95% ` +
    `interval (${r.samples.toLocaleString("en-US")} deals per decision).` +
    (r.reading ? " With the opponents' hands read, each decision also shows the choice's " +
                 "P(win game) with the deals weighted by the round's history (\u201cread\u201d); " +
                 "the others deal the unseen cards uniformly." : "") +
    (r.scale ? " On " + r.scale.words.join(" ") : "") +
    (r.calibration ? " " + r.calibration.words.join(" ") : "");
  const items = order.map(([d], rank) => {
    const ranked = Object.entries(d.options).sort((a, b) => b[1].win_game.rate - a[1].win_game.rate);
    const rows = ranked.map(([k, o]) => el("tr", {"data-option": k},
      el("td", {}, o.words + (k === d.chosen ? " (chosen)" : "") + (k === d.advisor ? " (advisor)" : "")),
      el("td", {}, `${PCT(o.win_game.rate)} ${PPCI(o.win_game)}`),
      el("td", {}, k === d.advisor ? "-" : `${PP(o.vs_advisor)} ${PPCI(o.vs_advisor)}`)));
    const head = el("tr", {}, ...["option", "P(win game)", "vs advisor"].map((h) => el("th", {scope: "col"}, h)));
    const words = d.decision_words ?? pretty(d.decision);
    const line = [el("strong", {}, `Round ${d.round}, turn ${d.turn}, ${words}: `), d.chosen_words,
      Object.keys(d.options).length === 1 ? " (forced: the only choice)"
        : d.chosen === d.advisor ? " (as the advisor)" : `; the advisor: ${d.advisor_words}`,
      el("span", {class: "loss"}, ` · loss ${PP(d.loss)} ${PPCI(d.loss)}` +
                                  (d.worse ? " (distinguishably worse)" : "")),
      d.reading ? el("span", {class: "read"}, ` · P(win) read ` +
        `${PCT(d.reading.win_game_chosen.rate)} ${PPCI(d.reading.win_game_chosen)}`) : ""];
    const body = [
      el("div", {class: "scroll"}, el("table", {class: "ranking"}, el("thead", {}, head), el("tbody", {}, ...rows))),
      // a decision of a game played on this page links back to that moment (play.js)
      d.step !== undefined && r.play_id ? el("button", {type: "button", class: "small moment",
        onclick: () => showMoment(r.play_id, d.step)}, "Show this moment") : ""];
    const open = rank < REVIEW_OPEN;          // the costliest in full, the others folded
    return el("li", {class: "reviewed", "data-round": d.round, "data-turn": d.turn, "data-decision": d.decision,
                     "data-step": d.step, hidden: rank >= REVIEW_SHOWN},   // step: a Play view game
      open ? el("p", {}, ...line) : el("details", {}, el("summary", {}, ...line), ...body),
      ...(open ? body : []));
  });
  const rest = Math.max(0, items.length - REVIEW_SHOWN);
  const more = el("button", {type: "button", id: "review-more", hidden: rest === 0, onclick: () => {
    for (const li of $("review-list").children) li.hidden = false;
    more.hidden = true;
  }}, `Show the other ${rest} decisions (smaller losses, folded)`);
  $("review-list").replaceChildren(...items);
  $("review-more-slot").replaceChildren(more);
  showLuck(r);
  $("review").hidden = false;
  addPractice(r);
}

// the seat's P(win game) from before the deal to the result (review's luck and skill): a
// waterfall, each term a floating bar from where the terms before it left the chance, its 95%
// interval a whisker at its end
const LUCK_BARS = [["start", "start"], ["luck", "luck"], ["skill", "skill"],
                   ["opponents", "opponents"], ["residual", "noise"], ["result", "result"]];

function svg(tag, attrs = {}, ...children) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

function luckBars(d) {
  let level = 0;
  return LUCK_BARS.map(([key, label]) => {
    const whole = key === "start" || key === "result";
    const v = key === "result" ? {mean: d.result, ci95: [d.result, d.result]} : d[key];
    const from = whole ? 0 : level, to = whole ? v.mean : level + v.mean;
    const bar = {key, label, from: 100 * from, to: 100 * to, mean: 100 * v.mean,
                 lo: 100 * (to - v.mean + v.ci95[0]), hi: 100 * (to - v.mean + v.ci95[1]), whole};
    level = to;
    return bar;
  });
}

function showLuck(r) {
  const d = r.luck;
  $("review-luck").hidden = !d;
  if (!d) return;
  const bars = luckBars(d);
  const W = 500, H = 250, left = 48, top = 30, bottom = 40, plot = H - top - bottom;
  const ends = bars.flatMap((b) => [b.from, b.to, b.lo, b.hi]);
  const lo = Math.min(0, ...ends), hi = Math.max(100, ...ends);
  const y = (v) => top + (hi - v) / (hi - lo) * plot;
  const step = (W - left - 8) / bars.length, width = step * 0.62;
  const parts = [];
  for (const g of [0, 50, 100]) {
    parts.push(svg("line", {class: "grid", x1: left, x2: W - 4, y1: y(g), y2: y(g)}),
               svg("text", {x: left - 6, y: y(g) + 4, "text-anchor": "end"}, `${g}%`));
  }
  bars.forEach((b, i) => {
    const x = left + i * step + (step - width) / 2, mid = x + width / 2;
    const kind = b.whole ? "level" : b.mean >= 0 ? "up" : "down";
    parts.push(svg("rect", {class: kind, "data-term": b.key, x, width,
                            y: y(Math.max(b.from, b.to)),
                            height: Math.max(1, Math.abs(y(b.from) - y(b.to)))}));
    if (b.key !== "result") {
      parts.push(svg("line", {class: "whisker", x1: mid, x2: mid, y1: y(b.lo), y2: y(b.hi)}));
    }
    const value = b.whole ? b.mean.toFixed(b.key === "result" ? 0 : 1)
                          : `${b.mean >= 0 ? "+" : "−"}${Math.abs(b.mean).toFixed(1)}`;
    parts.push(svg("text", {x: mid, y: y(Math.max(b.hi, b.to, b.from)) - 5,
                            "text-anchor": "middle"}, value),
               svg("text", {x: mid, y: H - bottom + 18, "text-anchor": "middle"}, b.label));
  });
  const words = (k) => `${PP(d[k])} ${PPCI(d[k])}`;
  const summary = `start ${(100 * d.start.mean).toFixed(1)} ${PPCI(d.start)}, luck ` +
    `${words("luck")} (${d.counts.luck} deals and draws), seat ${r.seat}'s decisions ` +
    `${words("skill")} ` +
    `(${d.counts.skill} unlike the model's), the opponents' ${words("opponents")}, noise ` +
    `${words("residual")}; result ${d.result ? "won (100)" : "not won (0)"}`;
  $("luck-chart").replaceChildren(svg("svg", {viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `Seat ${r.seat}'s chance to win the game: ${summary}`}, ...parts));
  $("luck-caption").textContent =
    `Where seat ${r.seat}'s chance to win the game came from, in points of P(win game) with ` +
    `95% intervals: ${summary}. Judged by a referee who sees every hand but not the deck's ` +
    `order, every player playing on as its model; a decision counts only where it differs ` +
    `from the model's.`;
}

// practice: the costliest decisions of the reviews shown on this page, asked again and scored
// against the advisor's ranking; kept in this browser only (localStorage), never sent anywhere
const PRACTICE_KEY = "seasalt-practice", PRACTICE_MAX = 30, PRACTICE_PER_REVIEW = 5;
let practiceAt = 0;

function practiceLoad() {
  try {
    const p = JSON.parse(localStorage.getItem(PRACTICE_KEY));
    if (p && Array.isArray(p.items)) return p;
  } catch { /* no storage or a damaged entry: start afresh */ }
  return {items: [], answered: 0, agreed: 0};
}

function practiceSave(p) {
  try { localStorage.setItem(PRACTICE_KEY, JSON.stringify(p)); } catch { /* storage off or full */ }
}

/** A review's costliest decisions (a real choice, not the advisor's, a positive loss) join the
 * practice positions, the newest PRACTICE_MAX kept. */
function addPractice(r) {
  const p = practiceLoad();
  const costly = r.decisions.filter((d) => d.seen && d.chosen !== d.advisor && d.loss.mean > 0 &&
                                           Object.keys(d.options).length > 1)
    .sort((a, b) => b.loss.mean - a.loss.mean).slice(0, PRACTICE_PER_REVIEW);
  for (const d of costly) {
    const id = `${r.seed}/${r.players}/${r.seat}/${d.round}/${d.turn}/${d.decision}`;
    if (p.items.some((x) => x.id === id)) continue;
    p.items.push({id, seed: r.seed, players: r.players, seat: r.seat, round: d.round,
                  turn: d.turn, words: d.decision_words ?? pretty(d.decision),
                  question: d.question ?? "", seen: d.seen, options: d.options,
                  advisor: d.advisor, chosen: d.chosen, loss: d.loss});
  }
  p.items = p.items.slice(-PRACTICE_MAX);
  practiceSave(p);
  practiceAt = Math.max(0, p.items.length - costly.length);
  showPractice();
}

function showPractice() {
  const p = practiceLoad(), box = $("practice");
  box.hidden = p.items.length === 0;
  document.body.dataset.practice = String(p.items.length);
  if (!p.items.length) return;
  practiceAt %= p.items.length;
  const x = p.items[practiceAt], s = x.seen, q = x.seat;
  const who = (i) => (i === q ? "you" : `seat ${i}`);
  const list = (cards) => cards.length ? cards.join(", ") : "none";
  $("practice-status").textContent =
    `Position ${practiceAt + 1} of ${p.items.length}, from your reviews (kept in this browser ` +
    `only); answered ${p.answered}, as good as the advisor's choice ${p.agreed}.`;
  const rows = [["game", `seed ${x.seed}, ${x.players} players, round ${x.round}, turn ${x.turn}`],
    ["your hand", list(s.hand)],
    ...(s.seen.length ? [["just seen", list(s.seen)]] : []),
    ["piles", s.piles.map((pl, j) => `${"AB"[j]}: ${pl.top ?? "empty"} (${pl.size})`).join("; ")],
    ["tables", s.tables.map((t, i) => `${who(i)}: ${list(t)}`).join("; ")],
    ["hand sizes", s.hand_sizes.map((n, i) => `${who(i)} ${n}`).join(", ")],
    ["deck", `${s.deck} cards`],
    ["totals", s.totals.map((t, i) => `${who(i)} ${t}`).join(", ")]];
  $("practice-position").replaceChildren(el("dl", {}, ...rows.flatMap(([k, v]) =>
    [el("dt", {}, k), el("dd", {}, v)])));
  $("practice-question").textContent = x.question || `${x.words}?`;
  $("practice-options").replaceChildren(...Object.entries(x.options).map(([k, o]) =>
    el("button", {type: "button", "data-option": k, onclick: () => answerPractice(k)}, o.words)));
  $("practice-answer").replaceChildren();
}

/** The answer scored against the advisor's ranking, with every option's P(win game). */
function answerPractice(pick) {
  const p = practiceLoad(), x = p.items[practiceAt];
  if (!x || $("practice-answer").childElementCount) return;    // one answer per showing
  const ranked = Object.entries(x.options).sort((a, b) => b[1].win_game.rate - a[1].win_game.rate);
  const rank = ranked.findIndex(([k]) => k === pick) + 1, o = x.options[pick];
  const good = pick === x.advisor || o.vs_advisor.ci95[1] >= 0;
  p.answered += 1;
  p.agreed += good ? 1 : 0;
  practiceSave(p);
  for (const b of $("practice-options").children) {
    b.setAttribute("aria-pressed", String(b.dataset.option === pick));
    b.disabled = true;
  }
  const best = x.options[x.advisor];
  const verdict = pick === x.advisor ? "The advisor's choice." : good
    ? `Not distinguishable from the advisor's choice (${best.words}) at this precision: ` +
      `${PP(o.vs_advisor)} ${PPCI(o.vs_advisor)} points of P(win game).`
    : `The advisor chooses ${best.words}: yours is number ${rank} of ${ranked.length}, ` +
      `${PP(o.vs_advisor)} ${PPCI(o.vs_advisor)} points of P(win game).`;
  const head = el("tr", {}, ...["option", "P(win game)", "vs advisor"].map((h) => el("th", {scope: "col"}, h)));
  const rows = ranked.map(([k, v]) => el("tr", {"data-option": k},
    el("td", {}, v.words + (k === pick ? " (yours)" : "") + (k === x.chosen ? " (in the game)" : "")),
    el("td", {}, `${PCT(v.win_game.rate)} ${PPCI(v.win_game)}`),
    el("td", {}, k === x.advisor ? "-" : `${PP(v.vs_advisor)} ${PPCI(v.vs_advisor)}`)));
  $("practice-answer").replaceChildren(
    el("p", {"data-rank": rank}, el("span", {class: good ? "good" : "bad"}, good ? "Good. " : "Costly. "),
       verdict, ` In the game: ${x.options[x.chosen].words}, which cost ` +
       `${(100 * x.loss.mean).toFixed(1)} ${PPCI(x.loss)} points.`),
    el("div", {class: "scroll"}, el("table", {class: "ranking"}, el("thead", {}, head),
                                    el("tbody", {}, ...rows))));
  $("practice-status").textContent = $("practice-status").textContent
    .replace(/answered \d+, as good as the advisor's choice \d+/,
             `answered ${p.answered}, as good as the advisor's choice ${p.agreed}`);
}

// ---------------------------------------------------------------------------------------------
// wiring

function wire() {
  $("practice-next").addEventListener("click", () => { practiceAt += 1; showPractice(); });
  $("practice-forget").addEventListener("click", () => {
    practiceSave({items: [], answered: 0, agreed: 0});
    showPractice();
  });
  showPractice();                       // positions kept from earlier visits
  $("players").addEventListener("change", (e) => {
    S.players = parseInt(e.target.value, 10);
    if (S.seat >= S.players) S.seat = 0;
    S.target = CAT.default_targets[S.players];
    fillSeats(S);
    buildSeats();
    if (!zones()[active]) setActive("hand", false);
    changed();
  });
  $("seat").addEventListener("change", (e) => {
    S.seat = parseInt(e.target.value, 10);
    fillSeats(S);
    buildSeats();
    if (!zones()[active]) setActive("hand", false);
    changed();
  });
  $("expansion").addEventListener("change", (e) => {
    S.expansion = e.target.value;
    buildPicker();
    buildLock();
    changed();
  });
  $("decision").addEventListener("change", (e) => {
    S.decision = e.target.value;
    buildDecision();
    if (!zones()[active] || zones()[active].shown === false) active = "hand";
    setActive({keep: "drawn", lobster: "seen"}[S.decision] ?? active, false);
    changed();
  });
  $("robust").addEventListener("change", showSamplesDefault);   // says it, changes nothing
  $("deck-manual").addEventListener("change", (e) => {
    S.deckManual = e.target.checked;
    changed();
    if (S.deckManual) $("deck").focus();
  });
  $("deck").addEventListener("input", (e) => {
    S.deck = parseInt(e.target.value, 10);
    if (!Number.isFinite(S.deck)) S.deck = 0;
    changed();
  });
  $("use-totals").addEventListener("change", (e) => {
    S.useTotals = e.target.checked;
    buildTotals();
    changed();
  });
  $("lock").addEventListener("change", (e) => {
    S.lock = e.target.value === "" ? null : parseInt(e.target.value, 10);
    changed();
  });
  NARROW.addEventListener("change", placePicker);
  $("picker-toggle").addEventListener("click", () => showPicker($("picker-grid").hidden));
  $("advise").addEventListener("click", () => advise($("samples").value.trim(), $("seed").value.trim()));
  $("more").addEventListener("click", () => {
    if (!last) return;
    const n = Math.min(CAT.samples.max, 4 * single(last).samples);
    $("samples").value = n;
    $("precision").value = "";
    advise(n, String(single(last).seed));
  });
  $("download").addEventListener("click", () => {
    const blob = new Blob([JSON.stringify(toPosition(), null, 2) + "\n"], {type: "application/json"});
    const a = el("a", {href: URL.createObjectURL(blob), download: "position.json"});
    document.body.append(a);
    a.click();
    a.remove();
  });
  $("copy-link").addEventListener("click", async () => {
    const status = $("file-status");
    try {
      await navigator.clipboard.writeText(location.href);
      status.className = "ok";
      status.textContent = "Link copied: it opens this position.";
    } catch (e) {
      status.className = "";
      status.textContent = `Copy this link: ${location.href}`;
    }
  });
  $("upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) await importText(await file.text(), file.name);
    e.target.value = "";
  });
  $("import").addEventListener("click", () => importText($("json").value, "import"));
  $("clear").addEventListener("click", () => {
    S = blank(S.players, S.seat, S.expansion);
    buildAll();
    $("file-status").textContent = "";
  });
}

/** The deals an advice samples when the Samples box is left empty (as `seasalt advise` without
 * --samples: fewer per model pair when several models are asked). */
function samplesShown() {
  return $("robust").checked ? CAT.samples.robust : CAT.samples.default;
}

/** The Samples box's placeholder is the default it stands for; ticking "several models" says
 * what a number there means, and never changes it. */
function showSamplesDefault() {
  $("samples").placeholder = String(samplesShown());
  $("samples-per").textContent = $("robust").checked ? "(per model pair)" : "";
}

async function start() {
  CAT = await (await fetch("/api/catalogue")).json();
  $("version").textContent = `seasalt ${CAT.version}`;
  $("expansion").replaceChildren(...Object.entries(CAT.expansions).map(
    ([name, n]) => el("option", {value: name}, `${name} (${n} cards)`)));
  $("decision").replaceChildren(...CAT.decisions.map((d) => el("option", {value: d.id}, d.label)));
  $("players").replaceChildren(...Object.keys(CAT.default_targets).map((n) => el("option", {value: n}, n)));
  $("player-names").replaceChildren(...CAT.players.map((name) => el("option", {value: name})));
  showSamplesDefault();
  $("samples").max = CAT.samples.max;
  const m = location.hash.match(/^#position=([A-Za-z0-9_-]+)$/);   // read before buildAll writes it
  S = blank();
  wire();
  buildAll();
  if (m) {
    let text = null;
    try { text = decodeLink(m[1]); } catch (e) { text = null; }
    if (text === null) {
      $("file-status").className = "bad";
      $("file-status").textContent = "link: not a position link";
    } else {
      await importText(text, "link");
    }
  }
  document.body.dataset.readyMs = performance.now().toFixed(1);   // since the navigation began
  document.body.dataset.ready = "true";
}

start();
