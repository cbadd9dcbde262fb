"""report.html in a real headless browser (Debian's Chromium and ChromeDriver, installed by .ci/run)."""

import shutil
from pathlib import Path

import pytest

from proofs_checks.model import CheckContext
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
def page(tmp_path_factory):
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    out = tmp_path_factory.mktemp("report")
    reg = fake_registry()
    ctx = CheckContext(out_dir=out)
    records = [claim_record(c, r) for c, r in run_claims(reg.claims, ctx)]
    payload = build_payload(
        records,
        profile="quick",
        seed=ctx.seed,
        findings=reg.findings,
        provenance=provenance(command=["verify"], seed=ctx.seed, profile="quick"),
    )
    _, _, html = write_report(payload, out)
    for fig in out.rglob("*.png"):  # the page must not need the figure files
        fig.unlink()
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    try:
        driver.get(Path(html).as_uri())
        yield driver
    finally:
        driver.quit()


def _ids(driver, table="claim-table"):
    from selenium.webdriver.common.by import By

    return [
        row.get_attribute("id")[len("claim-") :]
        for row in driver.find_elements(By.CSS_SELECTOR, f"#{table} tbody tr")
        if row.is_displayed()
    ]


def test_findings_come_first(page):
    from selenium.webdriver.common.by import By

    headings = [h.text for h in page.find_elements(By.TAG_NAME, "h2")]
    assert headings[0] == "Findings"
    assert (
        "The toy sensitivity is twice the stated one"
        in page.find_element(By.ID, "findings").find_element(By.XPATH, "following-sibling::section").text
    )


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
