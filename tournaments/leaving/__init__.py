"""A player leaving: the download of their own data (`export`). docs/leaving.md says what
an account's deletion must keep and erase, and what is built of it."""
