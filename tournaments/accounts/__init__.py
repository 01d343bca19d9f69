"""Accounts: verified email addresses, password reset, the account's own settings
(docs/accounts.md). `services` holds the steps; pages and the API call them."""
