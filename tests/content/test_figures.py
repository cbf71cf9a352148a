"""Each figure (tooling/figures.py, written by `make generated`) agrees with the library it
illustrates and speaks its page's language."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np
import pytest

from tooling.figures import (
    PATHS,
    broadcast_figure,
    broadcast_shape,
    generated_files,
    paths_figure,
)
from verified.paths import REPO_ROOT

GENERATED = generated_files(REPO_ROOT)


SHAPES = [((3, 2), (2, 3, 1)), ((3,), (4, 1)), ((1, 5), (5, 1), (2, 1, 1)), ((2, 3), (2, 3))]


@pytest.mark.parametrize("shapes", SHAPES)
def test_broadcast_shape_is_numpys(shapes):
    assert broadcast_shape(*shapes) == np.broadcast_shapes(*shapes)


def test_shapes_that_do_not_broadcast_are_refused_as_numpy_does():
    with pytest.raises(ValueError):
        np.broadcast_shapes((3, 2), (3,))
    with pytest.raises(ValueError, match="cannot be broadcast"):
        broadcast_shape((3, 2), (3,))


SVGS = sorted(str(path) for path in GENERATED if path.suffix == ".svg")


@pytest.mark.parametrize("path", SVGS)
def test_every_figure_is_valid_svg_titled_in_its_language(path):
    root = ElementTree.fromstring(GENERATED[Path(path)])
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    title = root.get("aria-label")  # every figure names itself in its own language
    assert title and title in "".join(root.itertext())
    locale = Path(path).parts[1]
    twin = path.replace(f"docs/{locale}/", "docs/en/" if locale == "zh" else "docs/zh/", 1)
    assert title != ElementTree.fromstring(GENERATED[Path(twin)]).get("aria-label")


def test_the_broadcasting_figure_shows_the_result_shape():
    svg = broadcast_figure({"a": (3, 2), "b": (2, 3, 1)}, "en")
    cells = [t.text for t in ElementTree.fromstring(svg).iter() if t.text in {"1", "2", "3"}]
    assert cells[-3:] == ["2", "3", "2"], "the last row must be the result shape (2, 3, 2)"


def test_the_paths_figure_draws_every_path_in_the_legend():
    texts = "".join(ElementTree.fromstring(paths_figure("en")).itertext())
    for _, _, call, _ in PATHS:
        assert call in texts
