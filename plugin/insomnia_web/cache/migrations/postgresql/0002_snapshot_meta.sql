-- insomnia-web cache schema, version 2: what a page states about itself (JSON: pages,
-- author, published, modified), kept with its snapshot.

ALTER TABLE snapshots ADD COLUMN meta text NOT NULL DEFAULT '{}';
