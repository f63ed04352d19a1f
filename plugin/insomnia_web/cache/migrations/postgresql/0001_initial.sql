-- insomnia-web cache schema, version 1: searches, page snapshots, findings, provider budgets.
-- Times are Unix seconds (double precision), as in the SQLite cache file.

CREATE TABLE searches (
    id bigserial PRIMARY KEY,
    params_key text NOT NULL,          -- canonical JSON of the search parameters
    norm_query text NOT NULL,          -- normalize_query(query)
    terms text NOT NULL,               -- sorted content words, space separated
    n_terms integer NOT NULL,
    query text NOT NULL,
    provider text NOT NULL,
    payload bytea NOT NULL,
    created_at double precision NOT NULL,
    terms_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', terms)) STORED,
    UNIQUE (params_key, norm_query)
);
CREATE INDEX searches_by_terms ON searches (params_key, terms, created_at);
CREATE INDEX searches_by_age ON searches (created_at);
CREATE INDEX searches_text ON searches USING gin (terms_tsv);

CREATE TABLE snapshots (
    id bigserial PRIMARY KEY,
    hash text NOT NULL,
    url text NOT NULL,
    final_url text NOT NULL,
    mode text NOT NULL,
    title text,
    text text NOT NULL,
    status integer NOT NULL,
    content_type text,
    charset text,
    bytes bigint NOT NULL,
    fetched_at double precision NOT NULL,
    redirects text NOT NULL,           -- JSON list
    truncated boolean NOT NULL,
    download_truncated boolean NOT NULL,
    UNIQUE (url, hash)
);
CREATE INDEX snapshots_by_hash ON snapshots (hash, fetched_at);
CREATE INDEX snapshots_by_url ON snapshots (url, mode, fetched_at);
CREATE INDEX snapshots_by_final_url ON snapshots (final_url, mode, fetched_at);
CREATE INDEX snapshots_by_age ON snapshots (fetched_at);

CREATE TABLE findings (
    id bigserial PRIMARY KEY,
    query text NOT NULL,
    content text NOT NULL,
    source_url text,
    query_terms text NOT NULL,         -- content words of the query
    terms text NOT NULL,               -- content words of query and content
    origin text NOT NULL,
    verified boolean NOT NULL DEFAULT false,
    verified_by_url text,
    stored_at double precision NOT NULL,
    expires_at double precision NOT NULL,
    terms_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', terms)) STORED
);
CREATE INDEX findings_by_source ON findings (source_url, verified);
CREATE INDEX findings_by_expiry ON findings (expires_at);
CREATE INDEX findings_text ON findings USING gin (terms_tsv);

CREATE TABLE rate_buckets (
    name text PRIMARY KEY,             -- provider:key-fingerprint
    next_free double precision NOT NULL,
    hold_until double precision NOT NULL
);

CREATE TABLE provider_usage (
    name text NOT NULL,
    day text NOT NULL,                 -- UTC YYYY-MM-DD
    requests bigint NOT NULL,
    PRIMARY KEY (name, day)
);
