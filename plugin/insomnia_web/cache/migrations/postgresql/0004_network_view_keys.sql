-- insomnia-web cache schema, version 4: the network view (web.url_policy allow_cidrs,
-- allow_hosts, resolve, and the proxy) a page was read under is part of its key, so the same
-- bytes read under two views are two copies; before, it was in meta and the last one won.

ALTER TABLE snapshots ADD COLUMN scope text NOT NULL DEFAULT '';
UPDATE snapshots SET scope = coalesce(meta::jsonb ->> 'scope', ''), meta = (meta::jsonb - 'scope')::text
    WHERE meta::jsonb ? 'scope';
ALTER TABLE snapshots DROP CONSTRAINT snapshots_url_hash_key;
ALTER TABLE snapshots ADD CONSTRAINT snapshots_url_hash_scope_key UNIQUE (url, hash, scope);
