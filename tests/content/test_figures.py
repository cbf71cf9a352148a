"""Each committed figure (`docs/**/*.svg`: the diagrams, drawn once and edited by hand, and the
measured-speed plots, which `make generated` draws) is titled in its page's language, and the
broadcasting diagram shows what NumPy computes."""

from __future__ import annotations

import xml.etree.ElementTree as ElementTree
from pathlib import Path

import numpy as np
import pytest

from verified.paths import REPO_ROOT
from verified_site.pages import LOCALES, translation_of

SVG = "{http://www.w3.org/2000/svg}"
#: Each figure, named as a Chinese page would be (`docs/zh/x.svg`, `docs/en/x.svg`: `docs/zh/x.md`).
FIGURES = sorted(
    {
        translation_of(path.relative_to(REPO_ROOT).with_suffix(".md"), LOCALES[0]).as_posix()
        for path in (REPO_ROOT / "docs").rglob("*.svg")
    }
)


@pytest.mark.parametrize("page", FIGURES)
def test_every_figure_is_valid_svg_titled_in_its_language(page):
    titles = []
    for locale in LOCALES:
        twin = translation_of(Path(page), locale).with_suffix(".svg")
        assert (REPO_ROOT / twin).is_file(), (
            f"{page}: no figure {twin.name} for its {locale} version"
        )
        root = ElementTree.parse(REPO_ROOT / twin).getroot()
        assert root.tag == f"{SVG}svg", f"{twin}: not SVG"
        titles.append(root.findtext(f"{SVG}title"))
        assert titles[-1], f"{twin}: no <title> (what screen readers and tooltips name it by)"
    assert len(set(titles)) == len(titles), f"{page}: its figures' titles are {titles}"


@pytest.mark.parametrize("locale", LOCALES)
def test_the_broadcasting_figure_shows_numpys_result_shape(locale):
    page = Path("docs/zh/fundamentals/broadcasting-shapes.md")
    figure = translation_of(page, locale).with_suffix(".svg")
    root = ElementTree.parse(REPO_ROOT / figure).getroot()
    sizes = [int(t.text) for t in root.iter(f"{SVG}text") if t.text and t.text.isdigit()]
    a, b, result = (tuple(sizes[row * 3 : row * 3 + 3]) for row in range(3))
    assert np.broadcast_shapes(a, b) == result, f"{figure}: the result row is not NumPy's"
