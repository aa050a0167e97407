"""Catalog sources, one module per domain; each defines ``MESSAGES: dict[str, tuple[en, zh]]``."""
