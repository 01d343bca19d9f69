"""The Chromium the browser tests share: Playwright's launch defaults kept, and no renderer
of its own for browser UI that a headless page never shows (tests/frontend/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.frontend.conftest import UNSHOWN_UI_FEATURES, disabled_features

pytestmark = [pytest.mark.slow]


def test_a_context_starts_no_renderer_for_unshown_browser_ui(browser: Any) -> None:
    contexts = [browser.new_context() for _ in range(2)]
    try:
        for context in contexts:
            context.new_page().goto("data:text/html,<p>cacho</p>")
        targets = browser.new_browser_cdp_session().send("Target.getTargets", {"filter": [{}]})["targetInfos"]
    finally:
        for context in contexts:
            context.close()
    ours = [t for t in targets if t["type"] == "page" and t["url"] == "data:text/html,<p>cacho</p>"]
    assert len(ours) == 2, targets
    assert [t["url"] for t in targets if t["type"] == "browser_ui"] == []


def test_playwrights_own_disabled_features_are_kept(browser: Any) -> None:
    features = disabled_features(browser.browser_type).split("=", 1)[1].split(",")
    # MediaRouter: one of Playwright's own (its launch would otherwise hang on some hosts).
    assert {"MediaRouter", *UNSHOWN_UI_FEATURES} <= set(features), features
    assert len(features) == len(set(features))
