-- Tournaments run on the platform: one row per tournament for listings and ownership, and the
-- append-only log of what happened in it, from which everything else is folded.
-- Portable across PostgreSQL and SQLite: times are BIGINT unix milliseconds.

CREATE TABLE tournaments_tournaments (
    -- Opaque and stable (`t_…`).
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    -- The creating organizer's account id and its username as typed at sign-up.
    owner TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    -- `registration`, `running` or `finished`: a copy of the fold's phase, for listings.
    state TEXT NOT NULL,
    create_time BIGINT NOT NULL,
    update_time BIGINT NOT NULL
);

CREATE INDEX tournaments_by_game ON tournaments_tournaments (game, create_time);
CREATE INDEX tournaments_by_owner ON tournaments_tournaments (owner, create_time);

-- Never updated nor deleted (but with its tournament): a fact per row, numbered from 1 per
-- tournament. The primary key is what makes two writers of the same next fact conflict, so
-- exactly one of them is appended.
CREATE TABLE tournaments_log (
    tournament TEXT NOT NULL REFERENCES tournaments_tournaments (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    -- The fact's JSON (`run::fact::Fact`).
    fact TEXT NOT NULL,
    -- The account that caused it; NULL for none.
    actor TEXT,
    time BIGINT NOT NULL,
    PRIMARY KEY (tournament, seq)
);
