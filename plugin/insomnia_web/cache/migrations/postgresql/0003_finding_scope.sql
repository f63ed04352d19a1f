-- insomnia-web cache schema, version 3: the network view (web.url_policy allow_cidrs,
-- allow_hosts, resolve, and the proxy) of the fetch that verified a finding; it counts as
-- verified only for callers with the same one.

ALTER TABLE findings ADD COLUMN verified_scope text NOT NULL DEFAULT '';
