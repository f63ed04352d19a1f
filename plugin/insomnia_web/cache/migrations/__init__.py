"""Schema migrations of the PostgreSQL cache: ``postgresql/NNNN_name.sql``, applied in order.

The files are plain SQL, shipped in the wheel; :mod:`insomnia_web.cache.postgres` applies
the ones newer than the database's ``insomnia_web_schema`` version, each in the transaction
that records it.
"""
