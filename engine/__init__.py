"""Unhex rules engine: pure Python, no Discord, no I/O."""
