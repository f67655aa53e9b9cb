-- Saved decks. Portable across PostgreSQL and SQLite: times are BIGINT unix milliseconds,
-- flags BIGINT 0 or 1, piles and rules JSON text (read and checked by the service).

CREATE TABLE decks_saved (
    -- Opaque and stable (`dk_…`): a save by name that replaces a deck keeps it.
    id TEXT PRIMARY KEY,
    -- The game's short name (`lor`, `pokemon`, `riftbound`).
    game TEXT NOT NULL,
    -- The owning account's id, and its username as typed at sign-up (usernames never change).
    owner TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    -- As typed; `name_key` is its lower case, what uniqueness on the account is decided by.
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    public BIGINT NOT NULL,
    -- `piles`, `single-deck` or `multi-deck`.
    layout TEXT NOT NULL,
    -- The piles as a JSON array, the rules as a JSON object.
    piles TEXT NOT NULL,
    rules TEXT NOT NULL,
    -- Copies that count, kept beside the piles so listings need not read them.
    main_count BIGINT NOT NULL,
    sideboard_count BIGINT NOT NULL,
    create_time BIGINT NOT NULL,
    update_time BIGINT NOT NULL
);

-- One deck per name on an account and game, whatever the case: a save by name finds it here.
CREATE UNIQUE INDEX decks_saved_by_name ON decks_saved (owner, game, name_key);
-- The owner's listing, newest first.
CREATE INDEX decks_saved_by_owner ON decks_saved (owner, game, update_time, id);
-- A profile's listing.
CREATE INDEX decks_saved_by_owner_name ON decks_saved (owner_name, public, update_time, id);
