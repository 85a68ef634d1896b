"""Regenerate ``expected.csv``, ``cases.ods`` and ``cases.xls`` from ``cases.py``.

Run it where LibreOffice is installed (``apt-get install libreoffice-calc-nogui``):
``python tests/io/number_formats/make_expected.py``. It writes one workbook (``cases.xlsx``,
kept for the tests) with a header ``value`` and then a value per row under its format, asks
``soffice --headless --convert-to csv`` to save the cells "as shown" (the CSV filter's ninth
option), and stores format, value and display. It also has LibreOffice save the workbook as
.ods and .xls, so the tests read the same cells as another program wrote them.
"""

from __future__ import annotations

import csv
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from openpyxl import Workbook

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from cases import CASES, TEXT_CASES  # noqa: E402

# separator, quote, UTF-8, first line, column formats, language en-US, quoted as text,
# detect special numbers, SAVE AS SHOWN, formulas, remove spaces
CSV_FILTER = "csv:Text - txt - csv (StarCalc):44,34,76,1,,1033,false,true,true,false,false"


def main() -> None:
    soffice = shutil.which("soffice") or shutil.which("libreoffice")
    if soffice is None:
        sys.exit("LibreOffice (soffice) is not installed")
    with tempfile.TemporaryDirectory() as tmp:
        book = Workbook()
        sheet = book.active
        sheet.title = "Cases"
        sheet.cell(row=1, column=1, value="value")
        rows = [*CASES, *TEXT_CASES]
        for index, (value, code) in enumerate(rows, start=2):
            cell = sheet.cell(row=index, column=1, value=value)
            cell.number_format = code
            if isinstance(value, str):
                cell.data_type = "s"
        sheet.column_dimensions["A"].width = 60
        workbook = HERE / "cases.xlsx"
        book.save(workbook)
        for target in (CSV_FILTER, "ods", "xls:MS Excel 97"):
            subprocess.run(
                [soffice, "--headless", "--convert-to", target, "--outdir", tmp, str(workbook)],
                check=True,
                capture_output=True,
                timeout=300,
            )
        shown = list(csv.reader((Path(tmp) / "cases.csv").read_text(encoding="utf-8").splitlines()))[1:]
        for suffix in ("ods", "xls"):
            shutil.copyfile(Path(tmp) / f"cases.{suffix}", HERE / f"cases.{suffix}")
    with (HERE / "expected.csv").open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["value", "format", "display"])
        for (value, code), row in zip(rows, shown, strict=True):
            writer.writerow([repr(value), code, row[0] if row else ""])


if __name__ == "__main__":
    main()
