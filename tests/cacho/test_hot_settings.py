"""The write path's settings are read once, and again after a setting changes."""

from __future__ import annotations

from django.test import override_settings

from cacho.process.hot_settings import setting


def test_a_remembered_setting_follows_override_settings_and_back() -> None:
    before = setting("CACHO_TIMERS", "in-process")
    with override_settings(CACHO_TIMERS="celery"):
        assert setting("CACHO_TIMERS", "in-process") == "celery"
    assert setting("CACHO_TIMERS", "in-process") == before


def test_a_missing_setting_gives_the_default() -> None:
    assert setting("CACHO_NOT_A_SETTING", 42) == 42
