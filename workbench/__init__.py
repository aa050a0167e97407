"""THE ENGINE of Paddle Workbench: plain Python, no Textual, Paddle only inside functions.

Importing ``workbench`` is cheap; submodules are imported where they are used.
"""
