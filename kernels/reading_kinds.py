"""The players hand reading can read (kernels.reading, analyzer.rules.policies): those whose
choices follow from what they see, with no random draw. Apart from kernels.policy_slots so that
declaring it changes none of the engine's compiled code (kernels.closure_hash)."""
from .policy_slots import BASELINE, EXPERT, THRESHOLD

READABLE_KINDS = (BASELINE, THRESHOLD, EXPERT)
