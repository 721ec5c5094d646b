"""The expert's weights: the shipped file (kernels/expert_weights.json, written by `seasalt
train`), read once, with its hash for every run's metadata.

The file holds one weight vector per player count (kernels/expert.py's blocks, in order) and
how it was made (the command, seed, generations and their measured strength).
"""
from __future__ import annotations

import functools
import hashlib
import json
import pathlib

import numpy as np

from kernels import HERE
from kernels import policy_slots as slots

from ..base.errors import SeasaltError

WEIGHTS_FILE = HERE / "expert_weights.json"


@functools.lru_cache(maxsize=None)
def weights_file() -> dict:
    """The shipped weights file, parsed and checked against the kernel's layout."""
    return read_weights(WEIGHTS_FILE)


def read_weights(path: pathlib.Path) -> dict:
    """A weights file, checked: one vector of kernels.policy_slots.E_SIZE numbers per player count."""
    try:
        data = json.loads(pathlib.Path(path).read_text())
    except (OSError, ValueError) as e:
        raise SeasaltError(f"cannot read the expert's weights {path}: {e}; reinstall seasalt or "
                           f"rebuild them with 'seasalt train'") from None
    if data.get("size") != slots.E_SIZE or not isinstance(data.get("players"), dict):
        raise SeasaltError(f"{path} is not a weights file of this engine (it needs {slots.E_SIZE} "
                           f"weights per player count); rebuild it with 'seasalt train'")
    for p, w in data["players"].items():
        if len(w) != slots.E_SIZE:
            raise SeasaltError(f"{path}: players {p} has {len(w)} weights, not {slots.E_SIZE}")
    return data


def weights(players: int) -> np.ndarray:
    """The expert's weight vector for `players` players."""
    return np.array(weights_file()["players"][str(players)], dtype=np.float64)


def weights_hash() -> str:
    """The hash of the shipped weights file (in the metadata of every run and in the engine's
    hash: a new file is a new engine)."""
    return hashlib.sha256(WEIGHTS_FILE.read_bytes()).hexdigest()[:16]


def dump(data: dict) -> str:
    """A weights file's text: stable key order, every float written exactly (repr)."""
    return json.dumps(data, indent=1, sort_keys=True) + "\n"
