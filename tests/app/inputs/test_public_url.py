"""The address students use (app/inputs/public_url.py): never loopback when the machine has a LAN
address, the teacher's setting first, and only http(s)."""

from __future__ import annotations

import pytest

from app.inputs import public_url
from app.inputs.public_url import public_base


@pytest.fixture
def lan(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(public_url, "lan_address", lambda: "192.168.4.7")
    return "192.168.4.7"


@pytest.mark.parametrize(
    "browser",
    ["http://localhost:8611/?steps=105", "http://127.0.0.1:8611", "http://[::1]:8611/",
     "http://0.0.0.0:8611/", "http://app.localhost:8611/"],
)  # fmt: skip
def test_a_loopback_browser_gives_the_lan_address(lan: str, browser: str) -> None:
    assert public_base(browser, {}) == f"http://{lan}:8611/"


def test_the_browsers_host_is_kept_when_students_can_reach_it(lan: str) -> None:
    assert public_base("http://10.1.2.3:8501/?x=1", {}) == "http://10.1.2.3:8501/"
    assert public_base("https://lab.school.example/mcts/?x", {}) == (
        "https://lab.school.example/mcts/"
    )


def test_the_setting_wins_and_must_be_http(lan: str) -> None:
    env = {public_url.ENV: "https://mcts.school.example/lab/"}
    assert public_base("http://localhost:8501/", env) == "https://mcts.school.example/lab/"
    for bad in ("javascript:alert(1)", "ftp://x", "not a url", "   "):
        assert public_base("http://localhost:8501/", {public_url.ENV: bad}) == (
            f"http://{lan}:8501/"
        )


def test_no_lan_address_falls_back_to_the_browsers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(public_url, "lan_address", lambda: None)
    assert public_base("http://localhost:8501/", {}) == "http://localhost:8501/"
    assert public_base(None, {}) == "http://localhost:8501/"


def test_this_machines_lan_address_is_not_loopback() -> None:
    address = public_url.lan_address()
    assert address is None or not address.startswith("127.")
