"""What every command's output goes through: strict JSON and --out files (shared by analyzer.faces.cli,
analyzer.faces.strategy_cli and analyzer.faces.seastead_cli without importing one another)."""
from __future__ import annotations

import math

import click


def json_safe(obj):
    """NaN and infinities (an empty histogram's mean) become null, so the output is strict JSON."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    return obj


def write_out(df, out: str) -> None:
    """Write a tidy frame to an --out file (analyzer.render.tidy_frames) and say so on stderr."""
    from .tidy_frames import write_frame
    path = write_frame(df, out)
    click.echo(f"wrote {len(df)} row{'s' if len(df) != 1 else ''} to {path}", err=True)
