"""Who owns what: the one-process lock of a SQLite store and the table leases of PostgreSQL.

Why its own package: ownership is the one thing that keeps two server processes from both
writing a table (issue 16); it sits between the store and the hub, and neither should grow
it. docs/architecture.md ("Ownership and fencing") says how and why.
"""
