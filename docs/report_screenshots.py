"""Regenerate docs/report-eval.png and docs/report-inspect.png: screenshots of the report.html pages that
`kg2tool eval` and `kg2tool inspect` write, taken in a headless Chromium.

    python docs/report_screenshots.py            # needs Debian's chromium (or KG2TOOL_CHROMIUM) and playwright

It makes a small dataset from examples/wiki.ttl in a temporary folder, scores the `no-call` reference model on it
(every call-needing row fails, so the page shows failed rows with their expected turns), inspects the dataset,
and saves two screenshots, each the page's top tables above its conversation list with one row open, as palette
PNGs (Pillow) to keep them small.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 1200, 900


def kg2tool(*args: str, cwd: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-m", "kg2tool", *args], cwd=cwd, env=env, check=True, capture_output=True)


def save_stitched(page, top_end_js: str, path: Path, rest: int = 860) -> None:
    """Save the page's top (down to the y that ``top_end_js`` computes) above its conversation list (``rest``
    pixels from the "Conversations" heading), as one 256-colour PNG: the tables and the chat turns in one figure."""
    from PIL import Image

    top_end = int(page.evaluate(top_end_js))
    start = int(page.evaluate("[...document.querySelectorAll('h2')].pop().getBoundingClientRect().top + scrollY - 8"))
    full = Image.open(io.BytesIO(page.screenshot(full_page=True))).convert("RGB")
    top = full.crop((0, 0, WIDTH, top_end))
    bottom = full.crop((0, start, WIDTH, min(full.height, start + rest)))
    out = Image.new("RGB", (WIDTH, top.height + 6 + bottom.height), (208, 215, 222))
    out.paste(top, (0, 0))
    out.paste(bottom, (0, top.height + 6))
    out.quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)
    print(f"wrote {path.relative_to(ROOT)} ({path.stat().st_size // 1024} KB, {out.width}x{out.height})")


def bottom_of(selector: str, index: int = 0) -> str:
    """JavaScript: the page y just below the ``index``-th element matching ``selector``."""
    return f"document.querySelectorAll({selector!r})[{index}].getBoundingClientRect().bottom + scrollY + 10"


def main() -> int:
    binary = os.environ.get("KG2TOOL_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not binary:
        print("no Chromium binary (apt-get install chromium, or set KG2TOOL_CHROMIUM)", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="kg2tool-shots-") as tmp:
        work = Path(tmp)
        graph = str(ROOT / "examples" / "wiki.ttl")
        kg2tool("synth", "--graph", graph, "--out", "wiki", "-n", "300", "--seed", "0", cwd=work)
        kg2tool("eval", "--model", "no-call", "--data", "wiki", "--graph", graph, "--out", "eval", cwd=work)
        kg2tool("inspect", "wiki", "--out", "inspect", "--samples", "0", cwd=work)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=binary, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})

            page.goto((work / "eval" / "report.html").as_uri())
            page.select_option('select[data-facet="result"]', "fail")
            page.select_option('select[data-facet="kind"]', "exec")
            page.locator("details.conv:not([hidden]) summary").nth(1).click()
            save_stitched(page, bottom_of("section.table"), ROOT / "docs" / "report-eval.png")

            page.goto((work / "inspect" / "report.html").as_uri())
            page.select_option('select[data-facet="category"]', "multi_turn")
            page.locator("details.conv:not([hidden]) summary").first.click()
            save_stitched(page, bottom_of("section.table", 2), ROOT / "docs" / "report-inspect.png")
            browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
