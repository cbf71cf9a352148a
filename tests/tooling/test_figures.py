"""The figures drawn at build time (verified_site.figures) agree with the libraries and
speak the page's language."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree

import numpy as np
import pytest

from verified_site.figures import BROADCAST_TEXT, FIGURES, PATHS, broadcast_figure, broadcast_shape

SHAPES = [((3, 2), (2, 3, 1)), ((3,), (4, 1)), ((1, 5), (5, 1), (2, 1, 1)), ((2, 3), (2, 3))]


@pytest.mark.parametrize("shapes", SHAPES)
def test_broadcast_shape_is_numpys(shapes):
    assert broadcast_shape(*shapes) == np.broadcast_shapes(*shapes)


def test_shapes_that_do_not_broadcast_are_refused_as_numpy_does():
    with pytest.raises(ValueError):
        np.broadcast_shapes((3, 2), (3,))
    with pytest.raises(ValueError, match="cannot be broadcast"):
        broadcast_shape((3, 2), (3,))


@pytest.mark.parametrize("locale", sorted(BROADCAST_TEXT))
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_figure_is_valid_svg_in_each_language(name, locale):
    svg = FIGURES[name](locale)
    root = ElementTree.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    title = root.get("aria-label")  # every figure names itself in its own language
    assert title and title in "".join(root.itertext())
    other = next(code for code in BROADCAST_TEXT if code != locale)
    assert title != FIGURES[name](other).split('aria-label="')[1].split('"')[0]


def test_the_broadcasting_figure_shows_the_result_shape():
    svg = broadcast_figure({"a": (3, 2), "b": (2, 3, 1)}, "en")
    cells = [t.text for t in ElementTree.fromstring(svg).iter() if t.text in {"1", "2", "3"}]
    assert cells[-3:] == ["2", "3", "2"], "the last row must be the result shape (2, 3, 2)"


def test_the_paths_figure_draws_every_path_in_the_legend():
    svg = FIGURES["tensorflow/conversion-paths"]("en")
    texts = "".join(ElementTree.fromstring(svg).itertext())
    for _, _, call, _ in PATHS:
        assert call in texts
