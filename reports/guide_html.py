"""The strategy guide's page: sections of prose, figures (each with its caption and the table
of its numbers) and tables. Pure string building; the caller writes the images beside it.

Its head (with the image check: `data-images="loaded"` on <body> once every image has rendered,
`data-figures-with-tables`) and each figure's start are the report page's (reports.html).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Sequence

from .html import figure_start, head

GENERATOR = "seasalt guide"

_STYLE = """body { font-family: system-ui, sans-serif; max-width: 1150px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
nav ol { columns: 2; font-size: .95em; }
figure { margin: 1.5em 0 2.5em; }
figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-size: 1.02em; margin: .4em 0; }
details { margin: .3em 0 1em; }
table { border-collapse: collapse; font-size: .82em; margin: .5em 0 1em; }
.scroll { max-width: 100%; overflow-x: auto; }
td.text { overflow-wrap: anywhere; }
th, td { border: 1px solid #ccc; padding: .2em .45em; text-align: right; vertical-align: top; }
th { background: #f3f3f3; }
td.text, th.text { text-align: left; }
td.tied { background: #fff3c4; }
.small { color: #555; font-size: .9em; }
ul.findings li { margin: .3em 0; }
code { font-size: .92em; background: #f6f6f6; padding: 0 .2em; }"""


@dataclass
class Table:
    """Column headers and rows of cells (text); `text_cols` are left-aligned; `marked` cells
    (row, column) are highlighted (tied with the best)."""
    headers: Sequence[str]
    rows: Sequence[Sequence[str]]
    caption: str = ""
    text_cols: Sequence[int] = (0,)
    marked: set = field(default_factory=set)
    csv: str = ""                    # the data file with these numbers, relative to the page


@dataclass
class Figure:
    name: str
    title: str
    caption: str
    table: Table
    png: str = ""
    svg: str = ""


@dataclass
class Section:
    id: str
    title: str
    paragraphs: Sequence[str] = ()
    findings: Sequence[str] = ()
    figures: Sequence[Figure] = ()
    tables: Sequence[Table] = ()


def _text_cell(v: str) -> str:
    """A text cell that may break after its commas (a long spec has no spaces), so a table fits
    the page's width."""
    return escape(v).replace(",", ",<wbr>")


def table_html(t: Table) -> str:
    out = ['<div class="scroll"><table>']
    if t.caption:
        out.append(f"<caption class=\"small\">{escape(t.caption)}</caption>")
    out.append("<tr>" + "".join(
        f'<th class="text">{escape(h)}</th>' if i in t.text_cols else f"<th>{escape(h)}</th>"
        for i, h in enumerate(t.headers)) + "</tr>")
    for r, row in enumerate(t.rows):
        cells = []
        for i, v in enumerate(row):
            cls = []
            if i in t.text_cols:
                cls.append("text")
            if (r, i) in t.marked:
                cls.append("tied")
            attr = f' class="{" ".join(cls)}"' if cls else ""
            text = _text_cell(str(v)) if i in t.text_cols else escape(str(v))
            cells.append(f"<td{attr}>{text}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table></div>")
    if t.csv:
        out.append(f'<p class="small">These numbers: <a href="{escape(t.csv)}">'
                   f'{escape(t.csv)}</a></p>')
    return "\n".join(out)


def page(title: str, intro: Sequence[str], sections: Sequence[Section],
         footer: Sequence[str] = ()) -> str:
    out = head(title, GENERATOR, _STYLE, viewport=True)
    out += [f"<p>{escape(p)}</p>" for p in intro]
    out.append("<nav><ol>" + "".join(f'<li><a href="#{escape(s.id)}">{escape(s.title)}</a></li>'
                                     for s in sections) + "</ol></nav>")
    for s in sections:
        out.append(f'<section id="{escape(s.id)}">')
        out.append(f"<h2>{escape(s.title)}</h2>")
        out += [f"<p>{escape(p)}</p>" for p in s.paragraphs]
        if s.findings:
            out.append('<ul class="findings">' + "".join(f"<li>{escape(f)}</li>"
                                                        for f in s.findings) + "</ul>")
        for f in s.figures:
            out += [*figure_start(f.name, f.title, f.png),
                    f"<figcaption><strong>{escape(f.title)}.</strong> {escape(f.caption)} "
                    f'<span class="small">(<a href="{escape(f.svg)}">SVG</a>)</span>'
                    "</figcaption>",
                    "<details open><summary class=\"small\">the numbers in this chart"
                    "</summary>", table_html(f.table), "</details>", "</figure>"]
        for t in s.tables:
            out.append(table_html(t))
        out.append("</section>")
    out += [f'<p class="small">{escape(x)}</p>' for x in footer]
    out += ["</body>", "</html>", ""]
    return "\n".join(out)
