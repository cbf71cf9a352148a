"""Figures drawn from data at build time, one per language: SVG, no image files committed.

The site plugin (verified_site.plugin, `on_files`) adds every figure in `FIGURES`
to the site as `<name>.svg` (Chinese) and `<name>.en.svg` (English), so that a page
embeds it with `![...](name.svg)` and each language gets its own labels. Text is
drawn in the reader's system fonts (the same CJK-aware stack as the pages): nothing
is downloaded.

tests/tooling/test_figures.py checks each figure against the library it illustrates
(the broadcast result shape against NumPy's `np.broadcast_shapes`).
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from verified_site.benchmarks import load_results, matmul_figure, results_files

FONT = (
    "system-ui, -apple-system, 'Segoe UI', Roboto, Arial, 'PingFang SC', "
    "'Microsoft YaHei', 'Noto Sans CJK SC', sans-serif"
)

#: Labels of the broadcasting figure, per locale.
BROADCAST_TEXT = {
    "zh": {
        "title": "广播：形状从右端对齐",
        "result": "结果",
        "padded": "左侧补 1",
        "stretched": "长度为 1，沿此维扩展",
    },
    "en": {
        "title": "Broadcasting: shapes align at the right",
        "result": "result",
        "padded": "1 added on the left",
        "stretched": "size 1, stretched along this axis",
    },
}


def _text_width(text: str, size: float = 16) -> float:
    """Rough width of a label in pixels: CJK characters are square, Latin ones narrower."""
    return sum(size if ord(char) > 0x2E80 else 0.6 * size for char in text)


def broadcast_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
    """The shape that broadcasting gives, by the rules the broadcasting page states.

    Args:
        *shapes (tuple[int, ...]): operand shapes.

    Returns:
        tuple[int, ...]: the result shape.

    Raises:
        ValueError: two sizes on one axis differ and neither is 1.
    """
    ndim = max(len(shape) for shape in shapes)
    padded = [(1,) * (ndim - len(shape)) + tuple(shape) for shape in shapes]
    result = []
    for axis, sizes in enumerate(zip(*padded, strict=True)):
        wanted = {size for size in sizes if size != 1}
        if len(wanted) > 1:
            raise ValueError(f"sizes {sizes} on axis {axis} cannot be broadcast")
        result.append(wanted.pop() if wanted else 1)
    return tuple(result)


def broadcast_figure(operands: dict[str, tuple[int, ...]], locale: str) -> str:
    """Draw how operand shapes align and which sizes stretch, as an SVG document.

    Args:
        operands (dict[str, tuple[int, ...]]): operand name -> shape, e.g.
            `{"a": (3, 2), "b": (2, 3, 1)}`.
        locale (str): `"zh"` or `"en"`, the language of the labels.

    Returns:
        str: the SVG source.

    Raises:
        KeyError: no labels for `locale`.
        ValueError: the shapes cannot be broadcast.
    """
    text = BROADCAST_TEXT[locale]
    result = broadcast_shape(*operands.values())
    ndim = len(result)
    cell, gap, left, top = 44, 8, 120, 56
    rows = [*operands.items(), (text["result"], result)]
    longest = max(_text_width(label) for label in text.values())
    width = round(max(left + ndim * (cell + gap) + 24, 24 + longest))
    height = top + len(rows) * (cell + gap) + 64
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(text["title"])}" '
        f'font-family="{FONT}" font-size="16">',
        # Its own light background: the figure stays readable in the dark colour scheme.
        f'<rect width="{width}" height="{height}" rx="6" fill="#fff"/>',
        f'<text x="12" y="28" font-weight="bold">{escape(text["title"])}</text>',
    ]
    for row, (name, shape) in enumerate(rows):
        y = top + row * (cell + gap)
        is_result = row == len(rows) - 1
        if is_result:
            parts.append(
                f'<line x1="12" x2="{width - 12}" y1="{y - gap / 2}" y2="{y - gap / 2}" '
                'stroke="#888" stroke-width="1"/>'
            )
        parts.append(
            f'<text x="12" y="{y + cell / 2 + 6}" font-weight="{"bold" if is_result else "normal"}"'
            f">{escape(name)}</text>"
        )
        missing = ndim - len(shape)
        for axis in range(ndim):
            x = left + axis * (cell + gap)
            added = axis < missing
            size = 1 if added else shape[axis - missing]
            stretched = not is_result and size == 1 and result[axis] != 1
            fill = "#fff3c4" if stretched else ("#e3f2fd" if is_result else "#f5f5f5")
            dash = ' stroke-dasharray="4 3"' if added else ""
            parts.append(
                f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" rx="4" fill="{fill}" '
                f'stroke="#555"{dash}/>'
            )
            parts.append(
                f'<text x="{x + cell / 2}" y="{y + cell / 2 + 6}" text-anchor="middle">'
                f"{size}</text>"
            )
    legend_y = top + len(rows) * (cell + gap) + 16
    parts += [
        f'<rect x="12" y="{legend_y}" width="16" height="16" fill="#f5f5f5" stroke="#555" '
        'stroke-dasharray="4 3"/>',
        f'<text x="34" y="{legend_y + 13}" font-size="13">{escape(text["padded"])}</text>',
        f'<rect x="12" y="{legend_y + 22}" width="16" height="16" fill="#fff3c4" stroke="#555"/>',
        f'<text x="34" y="{legend_y + 35}" font-size="13">{escape(text["stretched"])}</text>',
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


#: Labels of the conversion-paths figure, per locale.
PATHS_TEXT = {
    "zh": {
        "title": "在三个库之间转换：共享还是复制（CPU）",
        "shares": "共享内存",
        "copies": "复制",
        "view": "只读视图",
    },
    "en": {
        "title": "Converting between the three libraries: shared or copied (CPU)",
        "shares": "shares memory",
        "copies": "copies",
        "view": "read-only view",
    },
}

#: (from, to, call, kind) for every path the figure draws; kind is a PATHS_TEXT key.
PATHS = [
    ("numpy", "torch", "torch.from_numpy(a)", "shares"),
    ("torch", "numpy", "t.numpy()", "shares"),
    ("numpy", "tf", "tf.constant(a)", "copies"),
    ("tf", "numpy", "t.numpy()", "copies"),
    ("tf", "numpy", "np.asarray(t)", "view"),
    ("torch", "tf", "DLPack", "shares"),
    ("tf", "torch", "torch.from_dlpack(t)", "shares"),
]
_COLOUR = {"shares": "#2e7d32", "copies": "#c62828", "view": "#1565c0"}


def paths_figure(locale: str) -> str:
    """Draw the conversions between NumPy, PyTorch and TensorFlow as an SVG diagram.

    Each arrow is one call from `PATHS`, coloured by what it does to memory; the
    examples on the side-by-side page prove each of them.

    Args:
        locale (str): `"zh"` or `"en"`, the language of the labels.

    Returns:
        str: the SVG source.

    Raises:
        KeyError: no labels for `locale`.
    """
    text = PATHS_TEXT[locale]
    width, box_w, box_h = round(max(560, 24 + _text_width(text["title"]))), 150, 44
    nodes = {
        "numpy": (width / 2, 80, "NumPy ndarray"),
        "torch": (110, 300, "torch.Tensor"),
        "tf": (width - 110, 300, "tf.Tensor"),
    }
    top_of_legend = 370
    height = top_of_legend + len(PATHS) * 22
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(text["title"])}" '
        f'font-family="{FONT}" font-size="14">',
        f'<rect width="{width}" height="{height}" rx="6" fill="#fff"/>',
        "<defs>",
        *(
            f'<marker id="arrow-{kind}" viewBox="0 0 10 10" refX="9" refY="5" '
            f'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
            for kind, colour in _COLOUR.items()
        ),
        "</defs>",
        f'<text x="12" y="26" font-size="16" font-weight="bold">{escape(text["title"])}</text>',
    ]
    pairs: dict[frozenset, int] = {}
    for number, (source, target, call, kind) in enumerate(PATHS, start=1):
        (x1, y1, _), (x2, y2, _) = nodes[source], nodes[target]
        pair = frozenset((source, target))
        lane = pairs.get(pair, 0)
        pairs[pair] = lane + 1
        # Parallel arrows between one pair of boxes, side by side.
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5
        nx, ny = -dy / length, dx / length
        offset = (lane - 0.5) * 40 if source < target else (lane + 0.5) * 40
        sx, sy = x1 + nx * offset + dx * 0.22, y1 + ny * offset + dy * 0.22
        ex, ey = x2 + nx * offset - dx * 0.22, y2 + ny * offset - dy * 0.22
        colour = _COLOUR[kind]
        parts.append(
            f'<line x1="{sx:.1f}" y1="{sy:.1f}" x2="{ex:.1f}" y2="{ey:.1f}" stroke="{colour}" '
            f'stroke-width="2" marker-end="url(#arrow-{kind})"/>'
        )
        # A numbered marker on the arrow; the legend below says what it is.
        mx, my = (sx + ex) / 2, (sy + ey) / 2
        parts.append(
            f'<circle cx="{mx:.1f}" cy="{my:.1f}" r="10" fill="#fff" stroke="{colour}"/>'
            f'<text x="{mx:.1f}" y="{my + 4:.1f}" text-anchor="middle" font-size="12" '
            f'fill="{colour}">{number}</text>'
        )
        legend_y = top_of_legend + (number - 1) * 22
        parts.append(
            f'<text x="24" y="{legend_y}" fill="{colour}" font-size="13">{number}  '
            f'<tspan font-family="ui-monospace, Menlo, Consolas, monospace">{escape(call)}'
            f"</tspan> · {escape(text[kind])}</text>"
        )
    for x, y, label in nodes.values():
        parts.append(
            f'<rect x="{x - box_w / 2}" y="{y - box_h / 2}" width="{box_w}" height="{box_h}" '
            'rx="6" fill="#f5f5f5" stroke="#555"/>'
        )
        parts.append(
            f'<text x="{x}" y="{y + 5}" text-anchor="middle" '
            f'font-family="ui-monospace, Menlo, Consolas, monospace">{escape(label)}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


#: Site path (without `.svg`) -> function drawing the figure for a locale.
FIGURES: dict[str, Callable[[str], str]] = {
    "fundamentals/broadcasting-shapes": lambda locale: broadcast_figure(
        {"a": (3, 2), "b": (2, 3, 1)}, locale
    ),
    "tensorflow/conversion-paths": paths_figure,
}

# One plot per benchmark results file (verified_site.benchmarks), next to the page that
# shows them; a new file in benchmarks/results/ gets its figure without code changes.
for _path in results_files("matmul"):
    FIGURES[f"gpu/{_path.stem}"] = (
        lambda path: lambda locale: matmul_figure(load_results(path), locale)
    )(_path)
