"""Cacho: the match server (a Django app) around the pure rules engine.

This module must stay free of Django imports so that `python -m cacho replay`
runs with the engine alone.
"""
