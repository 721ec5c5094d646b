"""Seastead's facts for kernels.protocol, declared once from its layout (no kernel imports this
module, so declaring them changes no compiled code)."""
from ..protocol import GameFacts
from . import layout as L

FACTS = GameFacts(name="Seastead", seats=(1, 2), decision_kinds=L.KIND_NAMES,
                  max_options=L.MAX_OPTS, state_size=L.STATE_SIZE, trace_width=5)
