"""What a file may hold before GoldenLens refuses to read it (issue #22).

Cells over Excel's 32,767 characters, workbook parts that unpack out of proportion, and shared
strings repeated into far more text than the file holds: each check runs before (or, for a cell
read, right after) the library that would take the memory, and names file, sheet and cell.
"""
