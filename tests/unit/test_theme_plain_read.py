"""The bundled theme files are read without PyYAML before the first frame (``read_plain_theme``), with
exactly PyYAML's result; anything outside their plain shape is left to PyYAML."""

from __future__ import annotations

import pytest
import yaml

from workbench.themes import read_plain_theme, read_theme_data, theme_files


def test_every_bundled_theme_reads_as_yaml_reads_it() -> None:
    files = theme_files()
    assert files
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert read_plain_theme(text) == yaml.safe_load(text), path.name
    assert read_theme_data() == [yaml.safe_load(path.read_text(encoding="utf-8")) for path in files]


def test_the_plain_shape_with_nesting_comments_and_blank_lines() -> None:
    text = (
        '# a theme\nname: my-theme\ndark: false\n\nvariables:\n  # colours\n  loss-train: "#fff"\ntop: ""\n'
    )
    assert read_plain_theme(text) == yaml.safe_load(text)
    assert read_plain_theme(text) == {
        "name": "my-theme",
        "dark": False,
        "variables": {"loss-train": "#fff"},
        "top": "",
    }


@pytest.mark.parametrize(
    "text",
    [
        "dark: yes",  # a YAML 1.1 boolean
        "on: x-y",  # a boolean key
        "name: 1",
        "name: workbench",  # a bare word YAML may read otherwise: left to it
        "name: 'single'",
        'name: "a\\"b"',
        'name: "x" # inline comment',
        "name: {a: 1}",
        "- a",
        'name: "x"\nname: "y"',  # a repeated key
        'variables:\n    a: "x"',  # four spaces
        'variables:\n\ta: "x"',
        "variables:",  # null
        '  name: "x"',  # indented with nothing above
        'name: "x" ',
        "---\nname: x-y",
        "\ufeffname: x-y",
    ],
)
def test_anything_else_is_left_to_yaml(text: str) -> None:
    assert read_plain_theme(text) is None
