"""The report page: an index.html showing the charts, a finding and the table of numbers
under each, and the runs' metadata. Pure string building; the caller writes the images next to the page.

The page carries a tiny script that, once the page has loaded, sets `data-images="loaded"` on
<body> when every <img> has a natural width above zero (else "broken"), and
`data-figures-with-tables` to the number of figures holding a table, so a headless browser's
--dump-dom shows whether every image rendered. `head` and `figure_start` are the page's parts the
guide's page (reports.guide_html) shares.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Mapping, Sequence

GENERATOR = "seasalt report"

CHECK = """<script>
window.addEventListener("load", function () {
  var imgs = document.images, ok = imgs.length > 0;
  for (var i = 0; i < imgs.length; i++) {
    if (!(imgs[i].complete && imgs[i].naturalWidth > 0)) { ok = false; }
  }
  var figs = document.querySelectorAll("figure"), withTable = 0;
  for (var j = 0; j < figs.length; j++) {
    if (figs[j].querySelector("table")) { withTable++; }
  }
  document.body.setAttribute("data-image-count", String(imgs.length));
  document.body.setAttribute("data-images", ok ? "loaded" : "broken");
  document.body.setAttribute("data-figures", String(figs.length));
  document.body.setAttribute("data-figures-with-tables", String(withTable));
});
</script>"""

_STYLE = """body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.45; }
figure { margin: 2em 0; }
figure img { max-width: 100%; height: auto; border: 1px solid #ddd; }
figcaption { font-size: 1.05em; margin-top: .4em; }
table { border-collapse: collapse; font-size: .85em; }
th, td { border: 1px solid #ccc; padding: .25em .5em; text-align: left; vertical-align: top; }
td.spec { max-width: 40em; word-break: break-word; }
.small { color: #555; font-size: .9em; }"""


@dataclass
class Chart:
    """One chart on the page: image files (relative to the page), title and finding."""
    name: str
    title: str
    png: str
    svg: str
    finding: str
    sources: Sequence[str] = field(default_factory=list)
    table: tuple[Sequence[str], Sequence[Sequence[str]]] | None = None   # the chart's numbers


def head(title: str, generator: str, style: str, viewport: bool = False) -> list[str]:
    """A page's lines up to its <h1>: the document head with its style and the image check."""
    return ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
            f'<meta name="generator" content="{generator}">',
            *(['<meta name="viewport" content="width=device-width, initial-scale=1">']
              if viewport else []),
            f"<title>{escape(title)}</title>", f"<style>{style}</style>", CHECK, "</head>",
            "<body>", f"<h1>{escape(title)}</h1>"]


def figure_start(name: str, title: str, png: str) -> list[str]:
    """A chart's <figure> (id chart-NAME: never a section's id) and its image (its caption and
    table follow, then </figure>)."""
    return [f'<figure id="chart-{escape(name)}">', f'<img src="{escape(png)}" alt="{escape(title)}">']


def page(charts: Sequence[Chart], runs: Sequence[Mapping[str, object]], title: str,
         notes: Sequence[str] = ()) -> str:
    """The HTML text. `runs`: one mapping per result file (its metadata, shown as a table)."""
    out = head(title, GENERATOR, _STYLE)
    for n in notes:
        out.append(f'<p class="small">{escape(n)}</p>')
    out.append("<h2>Charts</h2>")
    if not charts:
        out.append("<p>No chart applies to these results.</p>")
    for c in charts:
        src = ", ".join(escape(s) for s in c.sources)
        out += [*figure_start(c.name, c.title, c.png),
                f"<figcaption><strong>{escape(c.title)}.</strong> {escape(c.finding)}"
                f'<br><span class="small">from {src}; '
                f'<a href="{escape(c.svg)}">SVG</a>, <a href="{escape(c.png)}">PNG</a></span>'
                "</figcaption>"]
        if c.table is not None:
            columns, rows = c.table
            out.append('<table class="numbers"><tr>' + "".join(f"<th>{escape(h)}</th>"
                                                              for h in columns) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{escape(str(v))}</td>" for v in row) + "</tr>"
                    for row in rows]
            out.append("</table>")
        out.append("</figure>")
    out.append("<h2>Runs</h2>")
    keys: list[str] = []
    for r in runs:
        keys += [k for k in r if k not in keys]
    out.append("<table><tr>" + "".join(f"<th>{escape(k)}</th>" for k in keys) + "</tr>")
    for r in runs:
        cells = []
        for k in keys:
            v = r.get(k, "")
            cls = ' class="spec"' if k in ("configuration",) else ""
            if k == "file" and v:
                cells.append(f'<td><a href="{escape(str(v))}">{escape(str(v))}</a></td>')
            else:
                cells.append(f"<td{cls}>{escape(str(v))}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out += ["</table>", "</body>", "</html>", ""]
    return "\n".join(out)
