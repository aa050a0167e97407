"""``python -m workbench`` — the same entry point as the ``paddle-workbench`` script."""

from workbench.cli import main

if __name__ == "__main__":
    main()
