"""Runner checkpoints (analyzer.runs.checkpoint), issue 28 item 7: a task line over 16 MiB used to end
the resume's reading silently, so the finished tasks after it were computed again (against the
README's promise); now it is a damaged line, named by its number, and nothing is recomputed."""
from __future__ import annotations

from hostile import cli, listing, make_sentinel, one_line

ARGS = ["simulate", "-p", "2", "--games", "100000", "--seed", "1"]


def test_a_line_over_16_mib_is_named_not_skipped(tmp_path):
    sentinel = make_sentinel(tmp_path / "sentinel")
    before = listing(sentinel)
    ck = tmp_path / "a.ckpt"
    p = cli(*ARGS, "--checkpoint", ck)
    assert p.returncode == 0, p.stderr
    lines = ck.read_bytes().splitlines(keepends=True)
    assert len(lines) > 3
    huge = b'{"batch": 0, "counters": [' + b"0, " * ((16 << 20) // 3) + b"0]}\n"
    ck.write_bytes(b"".join(lines[:2]) + huge + b"".join(lines[2:]))
    size = ck.stat().st_size
    one_line(cli(*ARGS, "--checkpoint", ck, "--resume"), "damaged at line 3", "over 16 MiB")
    assert ck.stat().st_size == size                 # the refused file is left as it was
    assert listing(sentinel) == before
