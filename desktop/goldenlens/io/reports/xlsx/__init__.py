"""The report workbook, one module per sheet."""
