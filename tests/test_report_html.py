"""report.html in a real headless browser (Debian's Chromium and ChromeDriver, installed by .ci/run)."""

import shutil
from pathlib import Path

import numpy as np
import pytest

from proofs_checks.model import CheckContext, Claim, Finding, Result
from proofs_checks.report import build_payload, claim_record, write_report
from proofs_checks.report.provenance import provenance
from proofs_checks.runner import run_claims

from ._fake_registry import fake_registry

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no headless browser: install Debian's chromium and chromium-driver (.ci/run does so as root)",
)


@pytest.fixture(scope="module")
def driver():
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    browser = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    browser.set_window_size(1400, 900)
    try:
        yield browser
    finally:
        browser.quit()


def _write(registry, out):
    ctx = CheckContext(out_dir=out)
    records = [claim_record(c, r) for c, r in run_claims(registry.claims, ctx)]
    payload = build_payload(
        records,
        profile="quick",
        seed=ctx.seed,
        findings=registry.findings,
        provenance=provenance(command=["verify"], seed=ctx.seed, profile="quick"),
    )
    _, _, html = write_report(payload, out)
    for fig in out.rglob("*.png"):  # the page must not need the figure files
        fig.unlink()
    return Path(html).as_uri()


@pytest.fixture(scope="module")
def small_report(tmp_path_factory):
    return _write(fake_registry(), tmp_path_factory.mktemp("report"))


@pytest.fixture
def page(driver, small_report):
    driver.get(small_report)
    return driver


def _large_registry():
    """As many claims and findings as a quick run has, with the longest words a real report holds."""
    reg = fake_registry()
    long_word = "x" * 300  # an evidence value with no place to break, like a long array printed whole

    def check(ctx):
        return Result(
            "refuted",
            observed=3.22691e31,
            bound=1.0,
            direction="at_most",
            method="exact output laws over the whole net (log-sum-exp), for each dataset and every neighbour " * 3,
            reading="[002 Alg. 1 step 6] as printed, with replace-one neighbours " * 4,
            evidence={"evaluations": 10, "note": long_word},
            evidence_kind="bound_search",
        )

    for paper in ("000", "002", "004"):
        ids = [f"paper{paper}.a-rather-long-claim-identifier.printed-indices.standard-{i}" for i in range(60)]
        for i, claim_id in enumerate(ids):
            kind = ("privacy", "formula", "inequality", "sensitivity", "rate")[i % 5]
            reg.add_claim(Claim(claim_id, f"[{paper} Thm. {i}]", "a statement of the paper " * 6, kind, check))
        for j in range(6):
            title = f"Finding {j} of {paper}: the printed bound of Lemma D.4 is false as printed " * 2
            reg.add_finding(Finding(f"{paper}.finding-{j}", paper, title, (ids[j],), "a reading " * 20, "s " * 80))
    return reg


@pytest.mark.parametrize("width", [1400, 1000])
def test_first_screen_fits_a_laptop(driver, tmp_path_factory, width):
    """A report of a quick run's size: no horizontal scroll, the verdict grid within the first window height."""
    uri = _write(_large_registry(), tmp_path_factory.mktemp("large"))
    driver.set_window_size(width, 900)
    try:
        driver.get(uri)
        layout = driver.execute_script(
            """
            const grid = document.getElementById("verdict-grid").getBoundingClientRect();
            const table = document.getElementById("claim-table").getBoundingClientRect();
            const root = document.documentElement;
            return {scrollWidth: root.scrollWidth, clientWidth: root.clientWidth, innerHeight: window.innerHeight,
                    gridTop: grid.top, gridBottom: grid.bottom, tableRight: table.right,
                    rows: document.querySelectorAll("#claim-table tbody tr").length};
            """
        )
        assert layout["rows"] == 3 + 180
        assert layout["scrollWidth"] <= layout["clientWidth"], layout  # no horizontal scroll
        assert layout["tableRight"] <= layout["clientWidth"], layout  # the claims table's "why" column wraps
        assert 0 <= layout["gridTop"] < layout["gridBottom"] <= layout["innerHeight"], layout  # above the fold
    finally:
        driver.set_window_size(1400, 900)


def _png(data):
    import io

    from matplotlib import image

    return image.imread(io.BytesIO(data), format="png")[:, :, :3]


@pytest.mark.parametrize("width", [1400, 1000])
def test_first_screen_screenshots(driver, tmp_path_factory, width):
    """Screenshots of the first screen: nothing drawn into the right margin, the verdict grid visible as drawn.

    The window's screenshot is compared with itself (the page's right margin, 16 px inside the viewport's
    client width, must be blank: a cut or overflowing column would draw there) and with the screenshot of the
    verdict grid alone (the grid's region of the first screen must show the grid, not something covering it).
    The screenshots are kept in the test's folder for a look when the test fails.
    """
    out = tmp_path_factory.mktemp(f"shots{width}")
    uri = _write(_large_registry(), out)
    driver.set_window_size(width, 900)
    try:
        driver.get(uri)
        from selenium.webdriver.common.by import By

        window_png = driver.get_screenshot_as_png()
        (out / "first_screen.png").write_bytes(window_png)
        grid = driver.find_element(By.ID, "verdict-grid")
        grid_png = grid.screenshot_as_png
        (out / "verdict_grid.png").write_bytes(grid_png)
        view = driver.execute_script(
            "const r = document.getElementById('verdict-grid').getBoundingClientRect();"
            "return {client: document.documentElement.clientWidth, dpr: window.devicePixelRatio,"
            " x: r.left, y: r.top, w: r.width, h: r.height};"
        )
        shot, grid_shot = _png(window_png), _png(grid_png)
        scale = view["dpr"]
        assert shot.shape[1] == round(width * scale)  # the screenshot is the window: no horizontal scroll
        client = round(view["client"] * scale)
        margin = shot[:, client - round(16 * scale) : client]
        assert margin.min() == 1.0, f"something is drawn in the right margin at {width} px (see {out})"
        top, left = round(view["y"] * scale), round(view["x"] * scale)
        height, wide = grid_shot.shape[:2]
        assert top + height <= shot.shape[0], f"the verdict grid is below the fold at {width} px (see {out})"
        # the element's box lies at fractional CSS pixels: its screenshot may start a pixel off the rounded corner
        differences = [
            float(np.abs(shot[top + dy : top + dy + height, left + dx : left + dx + wide] - grid_shot).mean())
            for dy in (-1, 0, 1)
            for dx in (-1, 0, 1)
            if top + dy >= 0 and left + dx >= 0 and top + dy + height <= shot.shape[0]
        ]
        assert min(differences) < 0.01, f"the grid is covered at {width} px (see {out})"
        assert float(grid_shot.std()) > 0.05  # the grid is drawn, not a blank box
        # power: a banner covering the grid's top and a badge drawn into the margin are both seen
        driver.execute_script(
            "document.body.insertAdjacentHTML('beforeend', '<div style=\"position:fixed;left:0;right:0;"
            f"top:{view['y']}px;height:{view['h'] / 2}px;background:#fff\"></div>"
            f"<div style=\"position:fixed;top:0;left:{view['client'] - 10}px;width:6px;height:6px;"
            "background:#c00\"></div>');"
        )
        broken = _png(driver.get_screenshot_as_png())
        covered = broken[top : top + height, left : left + wide]
        assert float(np.abs(covered - grid_shot).mean()) > 0.01
        assert broken[:, client - round(16 * scale) : client].min() < 1.0
    finally:
        driver.set_window_size(1400, 900)


def _ids(driver, table="claim-table"):
    from selenium.webdriver.common.by import By

    return [
        row.get_attribute("id")[len("claim-") :]
        for row in driver.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")
        if row.is_displayed()
    ]


def test_overview_then_findings_come_first(page):
    from selenium.webdriver.common.by import By

    headings = [h.text for h in page.find_elements(By.TAG_NAME, "h2")]
    assert headings[:2] == ["Overview", "Findings"]
    assert "The toy sensitivity is twice the stated one" in page.find_element(By.ID, "findings-002").text


def test_finding_reaches_its_evidence_in_one_click(page):
    from selenium.webdriver.common.by import By

    link = page.find_element(By.CSS_SELECTOR, "#finding-002\\.toy-sensitivity .key a")
    assert link.get_attribute("href").endswith("#claim-toy.sensitivity")
    link.click()
    assert page.execute_script("return location.hash") == "#claim-toy.sensitivity"
    row = page.find_element(By.ID, "claim-toy.sensitivity")
    assert 0 <= page.execute_script("return arguments[0].getBoundingClientRect().top", row) < 900


def test_figure_is_inline_and_loads(page):
    from selenium.webdriver.common.by import By

    img = page.find_element(By.CSS_SELECTOR, "#claim-toy\\.privacy img")
    assert img.get_attribute("src").startswith("data:image/png;base64,")
    assert page.execute_script("return arguments[0].naturalWidth", img) == 1


def test_sort_by_margin(page):
    from selenium.webdriver.common.by import By

    header = [th for th in page.find_elements(By.CSS_SELECTOR, "#claim-table th") if th.text.startswith("margin")][0]
    header.click()
    assert _ids(page) == ["toy.sensitivity", "toy.rate", "toy.privacy"]  # margins -1, 0.1, 0.25
    header.click()
    assert _ids(page) == ["toy.privacy", "toy.rate", "toy.sensitivity"]


def test_filter_by_verdict_and_text(page):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    select = Select(page.find_element(By.ID, "filter-verdict"))
    select.select_by_value("refuted")
    assert _ids(page) == ["toy.sensitivity"]
    assert page.find_element(By.ID, "shown-count").text == "1 of 3 claims shown"
    select.select_by_value("")
    box = page.find_element(By.ID, "filter-text")
    box.send_keys("004")
    assert _ids(page) == ["toy.rate"]
    box.clear()
    box.send_keys(" ")
    box.clear()


def test_evidence_is_collapsible(page):
    from selenium.webdriver.common.by import By

    details = page.find_element(By.CSS_SELECTOR, "#claim-toy\\.rate details")
    assert details.get_attribute("open") is None
    details.find_element(By.TAG_NAME, "summary").click()
    assert details.get_attribute("open") is not None
    assert "evaluations" in details.text
