"""The pages arrive in their reader's language: the words a page marks for its scripts
(`data-i18n`, `translatePage` in common.js) are already translated by the server, so a
reader of Korean never sees the English shell while the scripts load ("Connecting…",
"Pyramids: room"), nor at all without scripts."""

from __future__ import annotations

import html
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="needs the web extra (pip install '.[web]')")

from fastapi.testclient import TestClient  # noqa: E402

from pyramids.play.i18n import gettext  # noqa: E402
from pyramids.web.app import create_app  # noqa: E402
from pyramids.web.pages import STATIC_DIR, mount_pages  # noqa: E402

PAGES = {"/": "lobby.html", "/account": "account.html", "/leaderboard": "leaderboard.html",
         "/play/abc": "room.html", "/replay/abc": "replay.html",
         "/tutorial/pacal": "tutorial.html"}
MARKED = {"data-i18n-title": "title", "data-i18n-placeholder": "placeholder",
          "data-i18n-aria-label": "aria-label"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = mount_pages(create_app(f"sqlite:///{tmp_path / 'rooms.db'}"))
    with TestClient(app) as test_client:
        yield test_client


class Marked(HTMLParser):
    """Each marked element's words as a browser reads them: (message, text shown)."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str]] = []
        self.lang = ""
        self._open: list[str | None] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if tag == "html":
            self.lang = values.get("lang", "")
        for marker, attribute in MARKED.items():
            if marker in values:
                self.found.append((values[marker], values.get(attribute, "")))
        self._open.append(values.get("data-i18n"))

    def handle_endtag(self, tag: str) -> None:
        if self._open:
            self._open.pop()

    def handle_data(self, data: str) -> None:
        if self._open and self._open[-1] is not None and data.strip():
            self.found.append((self._open[-1], data))


def marked(page: str) -> Marked:
    parser = Marked()
    parser.feed(page)
    return parser


@pytest.mark.parametrize("address", sorted(PAGES))
def test_a_korean_reader_gets_the_page_in_korean(client: TestClient, address: str) -> None:
    english = (STATIC_DIR / PAGES[address]).read_text(encoding="utf-8")
    page = client.get(address, headers={"Accept-Language": "ko"})
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    found = marked(page.text)
    assert found.lang == "ko"
    assert len(found.found) == len(marked(english).found) > 0
    for message, shown in found.found:
        assert shown == gettext(html.unescape(message), "ko"), message
        assert shown != message, f"{message!r} left in English"


@pytest.mark.parametrize("address", sorted(PAGES))
def test_an_english_reader_gets_the_page_as_it_is_written(client: TestClient,
                                                          address: str) -> None:
    page = client.get(address, headers={"Accept-Language": "en"})
    assert page.text == (STATIC_DIR / PAGES[address]).read_text(encoding="utf-8")


def test_the_language_switch_and_a_link_s_lang_choose_the_page_s_language(
        client: TestClient) -> None:
    """The cookie the switch sets, and a shared link's ?lang=, as the scripts read them."""
    client.cookies.set("pyramids_lang", "ko")
    assert marked(client.get("/", headers={"Accept-Language": "en"}).text).lang == "ko"
    client.cookies.clear()
    assert marked(client.get("/?lang=ko").text).lang == "ko"
    assert marked(client.get("/?lang=en", headers={"Accept-Language": "ko"}).text).lang == "en"
