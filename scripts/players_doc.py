"""Rewrite the generated reference section of docs/players.md from the policy registry.

    python scripts/players_doc.py          # after adding or changing a registry entry
    python scripts/players_doc.py --check  # exit 1 if the section is out of date

tests/faces/test_docs.py fails while the section differs from `seasalt policies --markdown`.
"""
from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "players.md"


def updated(text: str) -> str:
    """`text` with its generated section replaced by the registry's current one."""
    from analyzer.rules.policy_docs import DOC_BEGIN, DOC_END, markdown

    start, end = text.index(DOC_BEGIN), text.index(DOC_END) + len(DOC_END)
    return text[:start] + markdown() + text[end:]


def main() -> int:
    sys.path.insert(0, str(ROOT))
    text = DOC.read_text(encoding="utf-8")
    new = updated(text)
    if "--check" in sys.argv[1:]:
        if new != text:
            print(f"{DOC} is out of date: run python scripts/players_doc.py", file=sys.stderr)
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    print(f"wrote {DOC}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
