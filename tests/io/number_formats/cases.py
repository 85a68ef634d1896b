"""(value, number format) cases whose display a real spreadsheet program supplies.

``make_expected.py`` writes them into a workbook, has LibreOffice Calc (headless) save it as
CSV "as shown", and stores that text in ``expected.csv``; the tests compare GoldenLens's
rendering with those displays. Values are numbers (dates as serials), as a cell stores them.
"""

from __future__ import annotations

CASES: tuple[tuple[float, str], ...] = (
    # percent
    (0.5, "0%"),
    (0.505, "0.00%"),
    (0.1234, "0.0%"),
    (-0.25, "0%"),
    (1.5, "0%"),
    # thousands, decimals, rounding as Excel rounds
    (134383, "#,##0"),
    (134383.5, "#,##0.00"),
    (1234567.891, "#,##0.00"),
    (1.005, "0.00"),
    (2.675, "0.00"),
    (0.125, "0.00"),
    (-0.5, "0"),
    (2.5, "0"),
    (0.123456, "0.0"),
    (12, "00000"),
    (0.5, "#.00"),
    (0.5, "0.##"),
    (3, "0.##"),
    (1234.5, "#,##0.0#"),
    (7, "000-00-0000"),
    (123456789, "000-00-0000"),
    (1234567.891, '#,##0,,"M"'),
    (1234567.891, "#,##0,"),
    (1234567.891, "0.0,,"),
    # currency and accounting
    (134.4, '"$"#,##0.00'),
    (134.4, "[$$-409]#,##0.00"),
    (134.4, "[$€-407] #,##0.00"),
    (-134.4, '"$"#,##0.00_);("$"#,##0.00)'),
    (-134.4, '"$"#,##0.00_);[Red]("$"#,##0.00)'),
    (1234.5, '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)'),
    (-1234.5, '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)'),
    (0, '_("$"* #,##0.00_);_("$"* (#,##0.00);_("$"* "-"??_);_(@_)'),
    (1234.5, "#,##0.00 [$USD]"),
    # sections and conditions
    (-1234.5, "#,##0.00;[Red](#,##0.00)"),
    (0, '0.00;-0.00;"zero"'),
    (-3, "0;0"),
    (150, '[>=100]"big "0;[<0]"neg "0;"small "0'),
    (5, '[>=100]"big "0;[<0]"neg "0;"small "0'),
    (-5, '[>=100]"big "0;[<0]"neg "0;"small "0'),
    # literals
    (134.4, '0.0 "billion"'),
    (3, '0" items"'),
    (42, "\\#0"),
    (42, "0_)"),
    # scientific
    (1234567, "0.00E+00"),
    (0.000123, "0.00E+00"),
    (1234567, "##0.0E+0"),
    (0, "0.00E+00"),
    (1234567, "0.0E-00"),
    # fractions
    (0.333333333, "# ?/?"),
    (2.5, "# ?/?"),
    (1.75, "# ??/??"),
    (0.1, "?/?"),
    (3.1416, "# ???/???"),
    (0.6, "# ?/8"),
    # General
    (1.5, "General"),
    (10317750796, "General"),
    (0.30000000000000004, "General"),
    (158, "General"),
    (-42.125, "General"),
    # dates and times (serials)
    (44979, "mmmm d, yyyy"),
    (44979, "m/d/yyyy"),
    (44979, "mm/dd/yy"),
    (44979, "d-mmm-yy"),
    (44979, "dddd, mmmm dd, yyyy"),
    (44979, "ddd d mmm"),
    (44979, "yyyy-mm-dd"),
    (44979, "mmm-yy"),
    (44979, "mmmmm"),
    (44979.5, "yyyy-mm-dd hh:mm:ss"),
    (44979.75, "m/d/yyyy h:mm"),
    (0.75, "h:mm AM/PM"),
    (0.25, "h:mm:ss AM/PM"),
    (0.0, "h:mm AM/PM"),
    (0.5, "hh:mm"),
    (0.5208333333, "h:mm"),
    (0.999999, "hh:mm:ss"),
    (1.25, "[h]:mm:ss"),
    (0.0625, "[mm]:ss"),
    (0.0006944444, "mm:ss.0"),
    (0.51234567, "hh:mm:ss.00"),
    (44979, "[$-409]mmmm d, yyyy;@"),
    (44979, "[$-409]d-mmm-yyyy"),
    (1, "yyyy-mm-dd"),
    (59, "yyyy-mm-dd"),
    (61, "yyyy-mm-dd"),
    # text section and @
    (12, "@"),
)

TEXT_CASES: tuple[tuple[str, str], ...] = (
    ("abc", '"Q: "@'),
    ("abc", '0.00;-0.00;0;"text: "@'),
    ("abc", "0.00"),
)
