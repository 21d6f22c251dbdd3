"""The registry of rule sets: name -> ``RulesetConfig`` (see ``rulesets.base``).

Only Europe (RULES.md §1) is implemented; New York (§3) and Warehouses & Depots (§2) plug in
here as further configs (and, for depots, a rules module).
"""

from __future__ import annotations

from types import MappingProxyType

from .base import RulesetConfig, VariantConfig
from .europe import EUROPE

RULESETS: MappingProxyType[str, RulesetConfig] = MappingProxyType({"europe": EUROPE})

# ruleset name -> its variant names, in the order of RULES.md 1.8
VARIANTS: MappingProxyType[str, tuple[str, ...]] = MappingProxyType(
    {name: tuple(cfg.variants) for name, cfg in RULESETS.items()}
)

__all__ = ["RULESETS", "VARIANTS", "RulesetConfig", "VariantConfig"]
