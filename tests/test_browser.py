"""The web page in a real headless Chromium: a player enters a roll and reads the best
keep; a designer changes a knob and reads the card; a report opens with its figures.

Driven by Playwright for Python, pointed at the system's Chromium (Debian's
``chromium`` package; ``$TABLETOP_CHROMIUM`` names another executable). Without a browser
or Playwright the tests are skipped and say so; ``.ci/run`` installs the browser and sets
``TABLETOP_REQUIRE_BROWSER=1``, so CI runs them or fails. Screenshots of each step are
saved under pytest's temporary folder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

#: Set to 1 by ``.ci/run`` once it has installed Chromium: then a missing browser or
#: Playwright fails the run instead of skipping these tests.
REQUIRED = os.environ.get("TABLETOP_REQUIRE_BROWSER") == "1"
CHROMIUM = os.environ.get("TABLETOP_CHROMIUM") or shutil.which("chromium") \
    or shutil.which("chromium-browser")  # fmt: skip
if REQUIRED:
    import panel  # noqa: F401  (an ImportError here fails the run, as it should)
    import playwright.sync_api as playwright

    if CHROMIUM is None:
        raise RuntimeError("TABLETOP_REQUIRE_BROWSER=1 but no Chromium was found: install "
                           "Debian's chromium package or set TABLETOP_CHROMIUM")  # fmt: skip
else:
    playwright = pytest.importorskip(
        "playwright.sync_api",
        reason="Playwright is not installed: the browser tests of the web page are skipped")
    pytest.importorskip("panel", reason="Panel is not installed: the web page tests are skipped")
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found (install Debian's chromium "
                       "package or set TABLETOP_CHROMIUM): the browser tests of the web page "
                       "are skipped"),
]  # fmt: skip

#: Milliseconds a page may take to show a computed result (a card solves on first use).
WAIT = 240_000


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``python -m tabletop.app --port 0`` in a subprocess, with caches of its own."""
    cache = tmp_path_factory.mktemp("app-cache")
    env = {**os.environ, "PYTHONPATH": str(ROOT.parent), "TABLETOP_PROGRESS": "0",
           "TABLETOP_CACHE_DIR": str(cache)}  # fmt: skip
    log = cache / "server.log"  # a file, not a pipe: nobody reads a pipe once it runs
    with log.open("w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "tabletop.app", "--port", "0"],
                                env=env, stdout=out, stderr=subprocess.STDOUT)  # fmt: skip
    try:
        url = None
        deadline = time.monotonic() + 120
        while url is None and time.monotonic() < deadline and proc.poll() is None:
            found = re.search(r"The page is at (http://127\.0\.0\.1:\d+/)", log.read_text())
            url = found.group(1) if found else time.sleep(0.1)
        assert url, f"the server printed no address: {log.read_text()[-2000:]}"
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server, tmp_path):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(server)
    page.wait_for_selector("text=Dice advisor", timeout=WAIT)
    yield page
    page.screenshot(path=str(tmp_path / "last.png"), full_page=True)
    page.close()


def _field(page, label: str):
    """The input under the label ``label``."""
    return page.locator(f"label:has-text('{label}') + * input, label:has-text('{label}') ~ input, "
                        f"label:has-text('{label}') + input").first  # fmt: skip


def test_a_player_types_a_roll_and_reads_the_best_keep(page, tmp_path):
    from tabletop.app import callbacks

    expected = callbacks.advise_roll("6 5 2", "6 6", "zero")
    page.get_by_role("button", name="clear", exact=True).click()
    for face in "652":  # clicked, as a player at the table would
        page.get_by_role("button", name=face, exact=True).click()
    page.get_by_role("textbox").nth(1).fill("6 6")
    page.locator("select:has(option:text-is('a positive total'))").select_option(
        label="a Master Panache (a total of exactly zero)")
    page.get_by_role("button", name="Advise").click()
    page.wait_for_selector(f"text={expected.best}", timeout=WAIT)
    page.screenshot(path=str(tmp_path / "advisor.png"), full_page=True)
    page.wait_for_selector(f"text={expected.command}", timeout=WAIT)  # the page's text is
    # in Bokeh's shadow DOM: text selectors pierce it, inner_text("body") does not
    page.get_by_role("textbox").nth(0).fill("6 7")
    page.get_by_role("button", name="Advise").click()
    error = page.get_by_text("error: roll: expected dice faces 1..6")
    error.wait_for(timeout=WAIT)
    page.screenshot(path=str(tmp_path / "advisor-error.png"), full_page=True)
    roll = page.get_by_role("textbox").nth(0).bounding_box()
    below = page.get_by_role("button", name="1", exact=True).bounding_box()  # the dice row
    shown = error.bounding_box()
    assert roll["y"] + roll["height"] <= shown["y"] < below["y"], (roll, shown, below)


def test_a_designer_changes_a_knob_and_reads_the_card(page, tmp_path):
    from tabletop.app import callbacks

    page.get_by_text("Variant explorer", exact=True).click()
    page.locator("select:has(option:text-is('Master & Commander'))").select_option(
        label="Master & Commander")
    page.wait_for_selector("text=win_gold", timeout=WAIT)
    box = page.locator("div.bk-input-group:has(label:text-is('win_gold')) input").first
    box.fill("8")
    box.press("Enter")
    page.get_by_role("button", name="Compare with the seed's rules").click()
    expected = callbacks.explore("commander", {"win_gold": 8})
    page.wait_for_selector(f"text={expected.command}", timeout=WAIT)
    page.screenshot(path=str(tmp_path / "explorer.png"), full_page=True)
    first_sentence = expected.comparison.verdict.split(". ")[0]
    page.wait_for_selector(f"text={first_sentence}", timeout=WAIT)
    for label in ("Download as Markdown", "Download as CSV"):
        assert page.get_by_text(label).count() == 1
    cell = expected.table.loc["fastest_win_income_4", "variant"]
    assert page.get_by_role("cell", name=cell, exact=True).count() >= 1


def test_a_report_opens_with_its_figures(page, tmp_path):
    page.get_by_text("Reports", exact=True).first.click()
    page.wait_for_selector("text=Balance at a glance", timeout=WAIT)
    from tabletop.app import callbacks

    title = next(t for t, path in callbacks.report_files().items() if path.stem == "commander")
    page.locator("select:has(option:text-is('Index'))").select_option(label=title)
    image = page.locator("img[src*='/reports/figures/commander-']").first
    image.wait_for(timeout=WAIT)
    assert page.evaluate("(img) => img.naturalWidth", image.element_handle()) > 100
    page.screenshot(path=str(tmp_path / "report.png"))


def test_a_long_card_says_its_estimate_first(page, tmp_path):
    page.get_by_text("Variant explorer", exact=True).click()
    page.locator("select:has(option:text-is('Master Citadel'))").select_option(
        label="Master Citadel")
    box = page.locator("div.bk-input-group:has(label:text-is('capital')) input").first
    box.wait_for(timeout=WAIT)
    box.fill("0")  # refused, beside the field
    box.press("Enter")
    page.get_by_role("button", name="Compare with the seed's rules").click()
    error = page.get_by_text("error: capital must be")
    error.wait_for(timeout=WAIT)
    field, shown = box.bounding_box(), error.bounding_box()
    following = page.locator("div.bk-input-group:has(label:text-is('bid_step')) input").first
    assert field["y"] + field["height"] <= shown["y"] < following.bounding_box()["y"]
    box.fill("300")
    box.press("Enter")
    page.get_by_role("button", name="Compare with the seed's rules").click()
    page.wait_for_selector("text=This card needs about", timeout=WAIT)
    page.screenshot(path=str(tmp_path / "estimate.png"), full_page=True)
    assert page.get_by_text("computing").count() == 0 or not page.get_by_text(
        "computing").first.is_visible()
