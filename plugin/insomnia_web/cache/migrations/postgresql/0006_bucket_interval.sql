-- insomnia-web cache schema, version 6: the interval (1 / rate_limit_per_s) of the request
-- that took a provider key's last slot, so that two slots in a row are spaced by the faster
-- of their two settings: a manifest with a slow rate delayed every process sharing the key.
-- Buckets stored before the upgrade keep their next_free as it is.

ALTER TABLE rate_buckets ADD COLUMN interval_s double precision NOT NULL DEFAULT 0;
