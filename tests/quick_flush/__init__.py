"""A test-only app whose `flush` command overrides Django's (app commands take precedence
over the core ones): after a `django_db(transaction=True)` test, Django empties the database
with `flush`, a TRUNCATE of every table and the content types and permissions made again
(about 0.3 s a test on PostgreSQL here); this one empties the tables the test wrote to
(tests/database.py, as after a `committed_db` test) in a few milliseconds."""
