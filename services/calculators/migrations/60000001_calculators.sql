-- Calculators people own, their immutable versions, and the defaults an account switched off.
-- Portable across PostgreSQL and SQLite: times are BIGINT unix milliseconds, flags BIGINT 0 or 1.

CREATE TABLE calculators_calculators (
    -- Opaque and stable (`calc_…`).
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    -- The owning account's id, and its username as typed at sign-up.
    owner TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    name TEXT NOT NULL,
    public BIGINT NOT NULL,
    -- Shown in deck views (off: "Hidden from deck views").
    enabled BIGINT NOT NULL,
    -- The newest version.
    latest_version BIGINT NOT NULL,
    create_time BIGINT NOT NULL,
    update_time BIGINT NOT NULL
);

CREATE INDEX calculators_by_owner ON calculators_calculators (owner, game, update_time);
CREATE INDEX calculators_by_owner_name ON calculators_calculators (owner_name, public, game);

-- Never updated: every change of source makes a version (deleted with its calculator).
CREATE TABLE calculators_versions (
    calculator TEXT NOT NULL REFERENCES calculators_calculators (id) ON DELETE CASCADE,
    version BIGINT NOT NULL,
    source TEXT NOT NULL,
    create_time BIGINT NOT NULL,
    PRIMARY KEY (calculator, version)
);

-- The defaults an account switched off (they are on for everyone else).
CREATE TABLE calculators_defaults_off (
    owner TEXT NOT NULL,
    calculator TEXT NOT NULL,
    PRIMARY KEY (owner, calculator)
);
