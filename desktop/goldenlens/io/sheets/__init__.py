"""A sheet as a spreadsheet program shows it: CSV, xlsx, xls, ods."""
