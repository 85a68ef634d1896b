"""The HTML report's inline style sheet and script (no file, font or library is loaded).

The script filters the question table by pipeline, flag and text, and reads an initial filter
from the address's fragment (``#pipeline=…&flag=…&q=…``); it touches no network API.
"""

from __future__ import annotations

from goldenlens.core.lexical.scorer import WordKind
from goldenlens.core.view.highlight_styles import FACT, STYLES
from goldenlens.core.view.pipeline_colours import PIPELINE_COLOURS


def pipeline_css() -> str:
    """The chip colour classes ``c0``…``c6`` (the app's pipeline colours)."""
    return "".join(f".c{i}{{background:{colour}}}" for i, colour in enumerate(PIPELINE_COLOURS))


def word_css() -> str:
    """Highlight classes in the app's colours, each with a mark that needs no colour (matched
    underlined, extra in italics, missed struck through, fact part bold and outlined)."""
    marks = {
        WordKind.MATCHED.value: "text-decoration:underline",
        WordKind.EXTRA.value: "font-style:italic",
        WordKind.MISSED.value: "text-decoration:line-through",
    }
    css = [
        f".w-{kind}{{background:{STYLES[kind].background};color:{STYLES[kind].foreground};{mark}}}"
        for kind, mark in marks.items()
    ]
    css.append(f".{FACT}{{font-weight:700;outline:1px solid {STYLES[FACT].foreground}}}")
    return "".join(css)


_BASE_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:1.5em;color:#1a1a1a;
background:#fff}
h1{margin:0 0 .2em;font-size:1.6em}h2{font-size:1.2em;margin:1.2em 0 .4em}
.note{color:#555;margin:0}
.warn{background:#fff4ce;border:1px solid #e0c060;padding:.4em .6em;display:inline-block}
table{border-collapse:collapse;font-size:.9em}
th,td{border:1px solid #ccd;padding:.25em .45em;vertical-align:top}
thead th{background:#dde4ee;position:sticky;top:0}.num{text-align:right;white-space:nowrap}
.ci{color:#555}.chip{display:inline-block;width:.8em;height:.8em;margin-right:.35em;border-radius:2px}
.chart{max-width:100%;height:auto;display:block;margin:.8em 0}.chart .grid{stroke:#e3e3e3}
.chart .axis{stroke:#777}.chart .err{stroke:#222;stroke-width:1.5;fill:none}
.chart text{font-size:12px;fill:#333}
.verdicts li.decided{font-weight:600}.caveat{color:#666;font-style:italic;font-weight:400}
.filters{margin:.5em 0;display:flex;gap:1em;align-items:center;flex-wrap:wrap}#shown{color:#555}
.legend span{padding:0 .2em}.text{white-space:pre-wrap;min-width:18em}.flags{min-width:8em}
tr[hidden]{display:none}.about th{text-align:left}
.question{min-width:12em}td.judge{white-space:normal;min-width:5em;max-width:14em}
.overridden{font-weight:700;font-style:italic}
.was,.by,.reason,.review .note{color:#555;font-weight:400;font-style:normal}
@media print{.filters{display:none}thead th{position:static}}
"""

CSS = _BASE_CSS.strip() + pipeline_css() + word_css()

SCRIPT = """
(function(){
var rows=Array.prototype.slice.call(document.querySelectorAll('#rows tbody tr'));
var p=document.getElementById('f-pipeline'),f=document.getElementById('f-flag');
var t=document.getElementById('f-text'),shown=document.getElementById('shown');
function keep(r){
var pv=p.value,fv=f.value,tv=t.value.trim().toLowerCase(),flags=r.getAttribute('data-flags');
if(pv&&r.getAttribute('data-pipeline')!==pv)return false;
if(fv==='*'&&!flags)return false;
if(fv==='-'&&flags)return false;
if(fv&&fv!=='*'&&fv!=='-'&&(' '+flags+' ').indexOf(' '+fv+' ')<0)return false;
return !tv||r.textContent.toLowerCase().indexOf(tv)>=0;}
function apply(){var n=0;rows.forEach(function(r){var k=keep(r);r.hidden=!k;if(k)n++;});
shown.textContent=n+' of '+rows.length+' rows shown';}
var h=new URLSearchParams(location.hash.slice(1));
if(h.has('pipeline'))p.value=h.get('pipeline');if(h.has('flag'))f.value=h.get('flag');
if(h.has('q'))t.value=h.get('q');
[p,f,t].forEach(function(e){e.addEventListener('input',apply);e.addEventListener('change',apply);});
apply();})();
""".strip()
