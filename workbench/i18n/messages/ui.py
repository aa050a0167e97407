"""Terminal UI strings."""

MESSAGES: dict[str, tuple[str, str]] = {}
