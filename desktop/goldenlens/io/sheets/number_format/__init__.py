"""Render a number as a spreadsheet cell with a number format shows it (en-US display).

A workbook stores ``0.5`` and a format ``0%``; the analyst sees ``50%``, and a golden fact
written as ``50%`` must match what the pipeline read. This package turns (value, format code)
into that text, following Excel's rules as ECMA-376 Part 1 §18.8.31 describes them and as Excel
and LibreOffice display them:

- up to four sections ``positive;negative;zero;text``, or conditions such as ``[>=100]``;
- digit placeholders ``0 # ?``, the decimal point, ``,`` for thousands (between placeholders)
  or for scaling by 1,000 (after the last one), ``%``, ``E+00`` scientific, ``# ?/?``
  fractions, ``"literal"``, ``\\c``, ``_x`` (a space as wide as ``x``), ``*x`` (fill);
- dates and times: ``y m d h s`` tokens, ``AM/PM``, elapsed ``[h] [m] [s]``, fractional
  seconds, with Excel's 1900 date system (including its fictitious 29 February 1900);
- colours ``[Red]`` and locale tags ``[$-409]`` are dropped; currency tags ``[$€-407]`` keep
  their symbol.

Rounding is Excel's: the value is first rounded to 15 significant digits, then half away from
zero at the shown precision (``1.005`` at two decimals is ``1.01``, not binary ``1.00``).
Separators are en-US (``,`` thousands, ``.`` decimal) whatever the format's locale, because
the format code itself is locale-neutral and golden facts are written with en-US separators.

A format this package cannot render faithfully raises :class:`UnsupportedFormatError`; the reader
then reports the cell instead of guessing.

Its rooms: ``codes`` takes a format code apart (sections, tokens, the built-in formats),
``numbers`` renders numbers, ``dates`` dates and times, and ``display`` picks a value's section
and renders it (:func:`~goldenlens.io.sheets.number_format.display.format_number`).
"""
