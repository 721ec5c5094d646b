"""`seasalt review`'s table never cuts an action's words (issue 30, item 5): a choice too long
for its column goes on in the line below, so the pile a discarded card goes to is always there."""
from __future__ import annotations

from analyzer.play.review import review
from analyzer.render.review_text import _loss, compact, format_review
from analyzer.render.text_tables import WIDTH


def _cells(text: str, rows: list[dict]) -> tuple[list[str], list[str]]:
    """The choice and advisor cells of the review's table, continuation lines joined."""
    lines = text.splitlines()
    h = next(i for i, x in enumerate(lines) if x.startswith("round  turn  decision"))
    head = lines[h]
    c0, p0, a0 = head.index("choice"), head.index("P(win)"), head.index("advisor")
    l0 = len(head) - max(4, *(len(_loss(x["loss"])) for x in rows))
    choices, advisors = [], []
    for line in lines[h + 1:]:
        if not line.strip():
            break
        choice, advisor = line[c0:p0].strip(), line[a0:l0].strip()
        if line[:c0].strip():                       # a new row: round, turn, decision
            choices.append(choice)
            advisors.append(advisor)
        else:                                       # the same row's words, going on
            choices[-1] += " " + choice if choice else ""      # lines break at spaces
            advisors[-1] += " " + advisor if advisor else ""
    return choices, advisors


def test_review_shows_every_choice_in_full_within_100_columns():
    r = review(7, 2, ["baseline"], seat=0, samples=40, target=20)
    text = format_review(r)
    rows = r["decisions"]
    assert max(len(line) for line in text.splitlines()) <= WIDTH
    assert "…" not in text and "..." not in text
    choices, advisors = _cells(text, rows)
    assert choices == [compact(x["chosen_words"]) for x in rows]
    assert advisors == ["forced" if len(x["options"]) == 1 else "same"
                        if x["chosen"] == x["advisor"] else compact(x["advisor_words"])
                        for x in rows]
    long = [c for c in choices if "discard on" in c and len(c) > 28]
    assert long, "the game has no long choice: the test would check nothing"
    assert all(c.endswith(("discard on A", "discard on B")) for c in choices
               if c.startswith("keep "))
