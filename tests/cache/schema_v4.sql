-- The cache file's tables as schema version 4 made them (the last before the network view
-- was part of a page's key and findings had one verification), for the upgrade tests.

CREATE TABLE IF NOT EXISTS searches (
    id INTEGER PRIMARY KEY,
    params_key TEXT NOT NULL,      -- canonical JSON of the search parameters
    norm_query TEXT NOT NULL,      -- normalize_query(query)
    terms TEXT NOT NULL,           -- sorted content words, space separated
    n_terms INTEGER NOT NULL,
    query TEXT NOT NULL,
    provider TEXT NOT NULL,
    payload BLOB NOT NULL,
    created_at REAL NOT NULL,
    used_at REAL NOT NULL DEFAULT 0,  -- version 3: last stored or read (size-cap eviction)
    UNIQUE (params_key, norm_query)
);
CREATE INDEX IF NOT EXISTS searches_by_terms ON searches (params_key, terms, created_at);
CREATE INDEX IF NOT EXISTS searches_by_age ON searches (created_at);
CREATE INDEX IF NOT EXISTS searches_by_use ON searches (used_at);

CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL,
    url TEXT NOT NULL,
    final_url TEXT NOT NULL,
    mode TEXT NOT NULL,
    title TEXT,
    text TEXT NOT NULL,
    status INTEGER NOT NULL,
    content_type TEXT,
    charset TEXT,
    bytes INTEGER NOT NULL,
    fetched_at REAL NOT NULL,
    redirects TEXT NOT NULL,       -- JSON list
    truncated INTEGER NOT NULL,
    download_truncated INTEGER NOT NULL,
    meta TEXT NOT NULL DEFAULT '{}',  -- version 3, JSON: pages, author, published, modified, scope
    used_at REAL NOT NULL DEFAULT 0,  -- version 3: last stored or read (size-cap eviction)
    UNIQUE (url, hash)
);
CREATE INDEX IF NOT EXISTS snapshots_by_hash ON snapshots (hash, fetched_at);
CREATE INDEX IF NOT EXISTS snapshots_by_url ON snapshots (url, mode, fetched_at);
CREATE INDEX IF NOT EXISTS snapshots_by_final_url ON snapshots (final_url, mode, fetched_at);
CREATE INDEX IF NOT EXISTS snapshots_by_age ON snapshots (fetched_at);
CREATE INDEX IF NOT EXISTS snapshots_by_use ON snapshots (used_at);

CREATE TABLE IF NOT EXISTS findings (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    query TEXT NOT NULL,
    content TEXT NOT NULL,
    source_url TEXT,
    query_terms TEXT NOT NULL,     -- content words of the query
    terms TEXT NOT NULL,           -- content words of query and content
    origin TEXT NOT NULL,
    verified INTEGER NOT NULL DEFAULT 0,
    verified_by_url TEXT,
    verified_scope TEXT NOT NULL DEFAULT '',  -- version 4: network view of the verifying fetch
    stored_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS findings_by_source ON findings (source_url, verified);
CREATE INDEX IF NOT EXISTS findings_by_expiry ON findings (expires_at);

CREATE TABLE IF NOT EXISTS rate_buckets (   -- version 2: provider budgets (cache/budget.py)
    name TEXT PRIMARY KEY,         -- provider:key-fingerprint
    next_free REAL NOT NULL,       -- Unix time the next request may start
    hold_until REAL NOT NULL       -- Unix time before which no request starts (429)
);
CREATE TABLE IF NOT EXISTS provider_usage (
    name TEXT NOT NULL,
    day TEXT NOT NULL,             -- UTC YYYY-MM-DD
    requests INTEGER NOT NULL,
    PRIMARY KEY (name, day)
);

CREATE VIRTUAL TABLE searches_fts USING fts5(terms);
CREATE VIRTUAL TABLE findings_fts USING fts5(terms);
PRAGMA user_version = 4;
