"""Policy kinds: which seats the engine asks and which it stops for (kernels.policies.IS_EXTERNAL).

A kind is external by a flag of its own, not by its number, so a new compiled bot takes the next
free number without moving any other kind (issue 24)."""
from analyzer.rules.policies import REGISTRY
from kernels import policies as kp


def test_every_registered_kind_has_its_flag_and_only_search_is_external():
    kinds = {info.kind for info in REGISTRY.values()}
    assert max(kinds | {kp.EXTERNAL}) < len(kp.IS_EXTERNAL)
    external = {k for k in range(len(kp.IS_EXTERNAL)) if kp.IS_EXTERNAL[k]}
    assert external == {kp.SEARCH, kp.EXTERNAL}
    for name, info in REGISTRY.items():
        assert bool(kp.IS_EXTERNAL[info.kind]) == (name == "search" or info.kind == kp.SEARCH)
