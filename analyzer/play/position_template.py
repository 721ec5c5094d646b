"""`seasalt advise --template`: a commented position file to copy and edit, and the reader's
comment rule (`//` to the end of a line, outside strings), so the template loads as it is.

The template is docs/example_position.json with a comment before each key (tested).
"""
from __future__ import annotations

import json

TEMPLATE = """\
// A position for `seasalt advise FILE`: what you know at the table at a decision of your turn
// (docs/rules.md, "Hidden information"). Lines from // on are comments. Cards are
// kind[:colour], comma-separated, as in `seasalt score` (or lists of such names).
{
  // 2 to 4 players; your seat counts from 0 in turn order
  "players": 2, "seat": 0,
  // "base" (58 cards) or "extra-salt" (66 cards); optional, default base
  "expansion": "base",
  // your hand, and the pairs (and trios) on your table
  "hand": "mermaid,mermaid,shell:black,shell:yellow,crab:dark_blue,octopus:yellow",
  "table": "boat:black,boat:yellow",
  // every other seat: its table, how many cards it holds, and those of them you know (you saw
  // it take them from a pile); "table" and "known" may be left out when empty
  "opponents": [
    {"seat": 1, "table": "fish:black,fish:green", "hand_size": 5, "known": "shark:green"}
  ],
  // each discard pile: its size and its top card, or all its cards bottom first if you
  // remember them ({"size": 0} or leaving the pile out: empty)
  "piles": {"A": {"size": 4, "top": "octopus:grey"}, "B": {"cards": "crab:black,penguin:pink"}},
  // cards left in the deck: hands, tables, piles and deck add up to the whole deck
  "deck": 37
  // optional, for a game in progress (without them: a new game): "totals": [12, 20], "target": 40
  // optional: "lock": your seat while your own jellyfish lock is in force (Extra Salt)
  // optional: "decision": "draw", "keep" (with "drawn": the two cards drawn, first drawn
  // first), "play" (this file's: declare, play a pair or end the turn), "crab" (with
  // "crab_pile": "A" once you look through that pile), "lobster" (with "seen": the cards
  // revealed, top first) or "steal"
  // a pile's cards may hold ? for cards you do not remember ("?,?,crab:black"), and
  // "crab_taken": [{"seat": 1, "among": 3}] when seat 1 took one of its bottom 3 cards with a
  // crab; the deck may be {"size": 37, "known": "mermaid"} with cards you know are in it
}
"""


def strip_comments(text: str) -> str:
    """`text` with every `//` comment removed (outside JSON strings); line breaks are kept, so
    a JSON error's line number is still the file's."""
    out = []
    i, n = 0, len(text)
    in_string = False
    while i < n:
        c = text[i]
        if in_string:
            out.append(c)
            if c == "\\" and i + 1 < n:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif c == "/" and text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


EXAMPLE: dict = json.loads(strip_comments(TEMPLATE))
