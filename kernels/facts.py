"""Sea Salt & Paper's facts for kernels.protocol, declared once from the engine's own tables (no
kernel imports this module, so declaring them changes no compiled code)."""
from .actions import DEC_NAMES
from .protocol import GameFacts
from .state_layout import MAX_LEGAL, STATE_SIZE

TRACE_WIDTH = 5                 # a trace event: code, player, a, b, c (kernels.events)

FACTS = GameFacts(name="Sea Salt & Paper", seats=(2, 3, 4), decision_kinds=DEC_NAMES,
                  max_options=MAX_LEGAL, state_size=STATE_SIZE, trace_width=TRACE_WIDTH)
