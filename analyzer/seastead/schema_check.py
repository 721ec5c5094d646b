"""The structural check of a Seastead components file: a small JSON Schema subset (type, enum,
required, additionalProperties, properties, items, min/maxItems, minimum/maximum, minLength), each
problem one line that names where it is (`cards[3].cost`). analyzer.seastead.components holds the
schema itself and the checks of meaning that follow this one."""
from __future__ import annotations


_TYPES = {"object": dict, "array": list, "string": str, "boolean": bool}


def _where(path: list) -> str:
    out = ""
    for p in path:
        out += f"[{p + 1}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out or "the file"


def _show(value) -> str:
    """A value for a message, cut short (a 4000-digit number, a long list)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** 60:
        return f"a number of {len(str(abs(value)))} digits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def check_schema(value, schema: dict, path: list, problems: list[str]) -> None:
    """Append to `problems` one line for each place where `value` (at `path`) breaks `schema`."""
    where = _where(path)
    if "enum" in schema:
        if not isinstance(value, (str, int, float, bool)) or value not in schema["enum"]:
            problems.append(f"{where}: {_show(value)} is not one of "
                            f"{', '.join(map(str, schema['enum']))}")
        return
    t = schema.get("type")
    if t == "integer":
        if isinstance(value, bool) or not isinstance(value, int):
            problems.append(f"{where}: expected a whole number, got {_show(value)}")
            return
        lo, hi = schema.get("minimum"), schema.get("maximum")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            problems.append(f"{where}: {_show(value)} is out of range [{lo}, {hi}]")
        return
    if t is not None and not isinstance(value, _TYPES[t]):
        problems.append(f"{where}: expected {'an' if t[0] in 'ao' else 'a'} {t}, "
                        f"got {type(value).__name__} {_show(value)}")
        return
    if t == "string" and len(value) < schema.get("minLength", 0):
        problems.append(f"{where}: must not be empty")
    if t == "object":
        for key in schema.get("required", []):
            if key not in value:
                problems.append(f"{where}: missing field {key!r}")
        props = schema.get("properties", {})
        for key, v in value.items():
            if key in props:
                check_schema(v, props[key], path + [key], problems)
            elif schema.get("additionalProperties") is False:
                problems.append(f"{where}: unknown field {key!r} (valid: {', '.join(props)})")
    if t == "array":
        lo, hi = schema.get("minItems"), schema.get("maxItems")
        if lo is not None and lo == hi and len(value) != lo:
            problems.append(f"{where}: expected exactly {lo} entries, got {len(value)}")
        elif lo is not None and len(value) < lo:
            problems.append(f"{where}: expected at least {lo} entries, got {len(value)}")
        elif hi is not None and len(value) > hi:
            problems.append(f"{where}: expected at most {hi} entries, got {len(value)}")
        if "items" in schema:
            for i, v in enumerate(value):
                check_schema(v, schema["items"], path + [i], problems)
