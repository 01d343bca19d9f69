"""A bounded, thread-safe mapping that forgets its least recently used entries.

The process's caches (match states, dice seeds' secrets, shared live frames) are all
this: `functools.lru_cache` caches a function's results, and these are filled by whoever
learns a value first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class LRU(Generic[K, V]):
    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            value = self._items.get(key)
            if value is not None:
                self._items.move_to_end(key)
            return value

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._store(key, value)

    def update(self, key: K, change: Callable[[V | None], V | None]) -> None:
        """Replace the entry by `change(current entry or None)`, atomically; a None result
        leaves the entry as it was."""
        with self._lock:
            value = change(self._items.get(key))
            if value is not None:
                self._store(key, value)

    def discard(self, key: K, when: Callable[[V], bool]) -> None:
        """Drop the entry if `when(entry)`, atomically."""
        with self._lock:
            value = self._items.get(key)
            if value is not None and when(value):
                del self._items[key]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __len__(self) -> int:
        return len(self._items)

    def _store(self, key: K, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)
        while len(self._items) > self.size:
            self._items.popitem(last=False)
