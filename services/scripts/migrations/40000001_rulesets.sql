-- Rulesets people own and their immutable versions. Portable across PostgreSQL and SQLite:
-- times are BIGINT unix milliseconds, flags BIGINT 0 or 1.

CREATE TABLE scripts_rulesets (
    -- Opaque and stable (`rs_…`).
    id TEXT PRIMARY KEY,
    -- The game's short name (`lor`, `pokemon`, `riftbound`).
    game TEXT NOT NULL,
    -- The owning account's id.
    owner TEXT NOT NULL,
    name TEXT NOT NULL,
    -- `card`, `deck` or `deckset`.
    scope TEXT NOT NULL,
    public BIGINT NOT NULL,
    enabled BIGINT NOT NULL,
    -- The newest version of an authored ruleset; for a downloaded copy, the origin's version
    -- it is pinned to.
    latest_version BIGINT NOT NULL,
    -- All three NULL for an authored ruleset; all three set for a downloaded copy, which has
    -- no versions of its own and runs the origin's (origin_ruleset, origin_version).
    origin_ruleset TEXT,
    origin_version BIGINT,
    -- `profile` or `tournament`: where the copy was saved from.
    origin_from TEXT,
    create_time BIGINT NOT NULL,
    update_time BIGINT NOT NULL,
    -- NULL: not deleted. A deleted ruleset is gone from every read; its versions stay.
    delete_time BIGINT
);

CREATE INDEX scripts_rulesets_by_owner ON scripts_rulesets (owner, game, update_time);

-- Never updated nor deleted: copies and tournaments pin (ruleset, version).
CREATE TABLE scripts_ruleset_versions (
    ruleset TEXT NOT NULL REFERENCES scripts_rulesets (id),
    -- 1, 2, …: the primary key makes two concurrent edits unable to take the same number.
    version BIGINT NOT NULL,
    source TEXT NOT NULL,
    -- The card refs banned on top of the script, as a JSON array of strings.
    direct_bans TEXT NOT NULL,
    create_time BIGINT NOT NULL,
    PRIMARY KEY (ruleset, version)
);
