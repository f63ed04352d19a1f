-- insomnia-web cache schema, version 5: which store (one agent's runtime) saved a finding,
-- so that one agent's findings are bounded apart from the others' (MAX_OWN_FINDINGS): a
-- model saving them by the thousand pushed every other agent's out of the shared cache.
-- Findings saved before the upgrade belong to no agent.

ALTER TABLE findings ADD COLUMN writer text NOT NULL DEFAULT '';
CREATE INDEX findings_by_writer ON findings (writer, id);
