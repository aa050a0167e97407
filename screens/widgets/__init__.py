"""Self-contained widgets (each owns its DEFAULT_CSS)."""
