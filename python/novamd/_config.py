"""Turning Python values into the YAML text the engine's config reader takes.

A config given as a dict has the structure of the YAML file (docs/config.md); it crosses to the
engine as JSON, which is YAML. ``None`` stands for the config's ``none``; NumPy scalars and
arrays, paths and tuples are turned into numbers, strings and lists.
"""

import json
import os

import numpy as np


def plain(value):
    """``value`` with every NumPy scalar or array, path, tuple and None made plain JSON."""
    if value is None:
        return "none"
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return plain(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    if hasattr(value, "to_config"):
        return plain(value.to_config())
    return value


def yaml_text(config):
    """A config dict as text for the engine's reader."""
    return json.dumps(plain(config))


def override_value(value):
    """The text of one ``set`` override: strings as they stand (``"1 bar"``, ``"none"``),
    everything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(plain(value))


def overrides(mapping):
    """``{"key.path": value}`` as the engine's (key path, text) pairs, in order."""
    if not mapping:
        return []
    if not isinstance(mapping, dict):
        raise TypeError("set: expected a dict of {'key.path': value}")
    return [(str(k), override_value(v)) for k, v in mapping.items()]
