-- insomnia-web cache schema, version 4: the network view (web.url_policy allow_cidrs,
-- allow_hosts, resolve, and the proxy) is part of what is stored per view.
--
-- A page's view is part of its key, so the same bytes read under two views are two copies;
-- before, it was in meta and the last one stored won.

ALTER TABLE snapshots ADD COLUMN scope text NOT NULL DEFAULT '';
UPDATE snapshots SET scope = coalesce(meta::jsonb ->> 'scope', ''),
    meta = (meta::jsonb - 'scope')::text
    WHERE meta::jsonb ? 'scope';
ALTER TABLE snapshots DROP CONSTRAINT snapshots_url_hash_key;
ALTER TABLE snapshots ADD CONSTRAINT snapshots_url_hash_scope_key UNIQUE (url, hash, scope);

-- A finding keeps one verification per view, so verifying it under one view leaves it
-- verified under the others; before, it held one and the last one won. When a finding was
-- verified is unknown for the old rows: the time it was saved stands for it.

CREATE TABLE finding_verifications (
    finding_id bigint NOT NULL REFERENCES findings (id) ON DELETE CASCADE,
    scope text NOT NULL,               -- the network view of the fetch that verified it
    verified_by_url text NOT NULL,     -- the fetched page whose text contained it
    verified_at double precision NOT NULL,
    PRIMARY KEY (finding_id, scope)
);
INSERT INTO finding_verifications (finding_id, scope, verified_by_url, verified_at)
    SELECT id, verified_scope, verified_by_url, stored_at FROM findings
    WHERE verified AND verified_by_url IS NOT NULL;
DROP INDEX findings_by_source;
ALTER TABLE findings DROP COLUMN verified, DROP COLUMN verified_by_url,
    DROP COLUMN verified_scope;
CREATE INDEX findings_by_source ON findings (source_url);
