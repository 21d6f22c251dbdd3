"""The registry of rule sets: name -> ``RulesetConfig`` (see ``rulesets.base``).

Europe (docs/rules.md §1) and New York (§3). Warehouses & Depots (§2) is an option of the Europe
configs (``warehouses_allowed``), implemented in ``rules/depots.py``.
"""

from __future__ import annotations

from types import MappingProxyType

from .base import RulesetConfig, VariantConfig
from .europe import EUROPE
from .new_york import NEW_YORK

RULESETS: MappingProxyType[str, RulesetConfig] = MappingProxyType(
    {"europe": EUROPE, "new_york": NEW_YORK}
)

# ruleset name -> its variant names (Europe: in the order of docs/rules.md 1.8)
VARIANTS: MappingProxyType[str, tuple[str, ...]] = MappingProxyType(
    {name: tuple(cfg.variants) for name, cfg in RULESETS.items()}
)

__all__ = ["RULESETS", "VARIANTS", "RulesetConfig", "VariantConfig"]
