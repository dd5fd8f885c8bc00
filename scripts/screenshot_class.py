"""Screenshots of a class for the README: the projector (a teacher's page at 1280x720 after
"Start a class" and a few Steps, two students joined) and a student's phone (390x844) during a
question, then the same phone exploring the tree on its own ("Explore on my own"). Starts the
app with its own class store; writes assets/class-projector.png, assets/class-phone.png and
assets/class-explore.png (or into --out).

    python scripts/screenshot_class.py [--out assets]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, running_app
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]


def _idle(page: Any) -> None:  # a Playwright page
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE, timeout=60_000)
    page.wait_for_timeout(400)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", default=str(ROOT / "assets"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    with tempfile.TemporaryDirectory() as folder:
        store = {"MCTS_LAB_STORE": f"sqlite:///{folder}/classes.db"}
        with running_app(env=store) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            teacher = browser.new_page(viewport={"width": 1280, "height": 720})
            teacher.goto(url + "/?game=tic_tac_toe&seed=1&steps=12")
            teacher.wait_for_selector("g.tv-node", timeout=60_000)
            _idle(teacher)
            teacher.locator(".st-key-class_start button").first.click()
            _idle(teacher)
            code = teacher.locator(".lab-class-code").first.inner_text().strip()
            phones = []
            for name in ("Ada", ""):
                phone = browser.new_page(viewport={"width": 390, "height": 844})
                phone.goto(f"{url}/?class={code}")
                phone.wait_for_selector(".st-key-class_code input", timeout=60_000)
                _idle(phone)
                if name:
                    phone.locator(".st-key-class_name input").fill(name)
                phone.get_by_role("button", name="Join").click()
                _idle(phone)
                phones.append(phone)
            teacher.wait_for_timeout(1500)  # the room box counts every second
            teacher.screenshot(path=str(out / "class-projector.png"))
            teacher.locator(".st-key-class_join_toggle button").first.click()
            _idle(teacher)
            teacher.locator(".st-key-step button").first.click()
            _idle(teacher)
            phone = phones[0]
            phone.wait_for_timeout(1000)  # the teacher's Step reaches the phone
            _idle(phone)
            phone.locator(".st-key-class_answer [role='radiogroup'] label").first.click()
            _idle(phone)
            phone.screenshot(path=str(out / "class-phone.png"))
            phone.locator(".st-key-class_explore button:visible").first.click()
            phone.wait_for_selector(".st-key-class_back", timeout=60_000)
            _idle(phone)
            phone.locator(".st-key-step button:visible").first.click()
            _idle(phone)
            phone.screenshot(path=str(out / "class-explore.png"))
            browser.close()
    print(f"wrote class-projector.png, class-phone.png and class-explore.png in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
