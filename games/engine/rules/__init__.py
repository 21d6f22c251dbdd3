"""The rule modules (see ``games.engine``); compiled too when the engine is native."""

from ..native import extend_rules_path

extend_rules_path(__path__)
