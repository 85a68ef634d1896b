"""Render resources/icons/goldenlens.svg to the PNG sizes desktops ask for (16 … 256 px).

Run with a Python that has PySide6 (it renders offscreen, no display needed):

    QT_QPA_PLATFORM=offscreen python packaging/make_icons.py

The PNGs are checked in; run this again only after editing the SVG.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"
SVG = ICONS / "goldenlens.svg"
SIZES = (16, 32, 48, 64, 128, 256)


def render(size: int) -> QImage:
    """The SVG drawn on a transparent ``size`` x ``size`` image, antialiased."""
    renderer = QSvgRenderer(str(SVG))
    if not renderer.isValid():
        raise SystemExit(f"{SVG}: not a valid SVG")
    image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
    renderer.render(painter, QRectF(0, 0, size, size))
    painter.end()
    return image


def main() -> int:
    app = QGuiApplication(sys.argv[:1])
    for size in SIZES:
        target = ICONS / f"goldenlens-{size}.png"
        if not render(size).save(str(target), "PNG"):
            print(f"could not write {target}", file=sys.stderr)
            return 1
        print(target.relative_to(ICONS.parents[1]))
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
