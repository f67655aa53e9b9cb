-- Saved decks and deck sets (a multi-deck layout's piles saved together as a lineup).
-- Portable across PostgreSQL and SQLite: times are BIGINT unix milliseconds, flags BIGINT 0 or
-- 1, piles and rules JSON text (read and checked by the service).

CREATE TABLE decks_saved (
    -- Opaque and stable (`dk_…`, `ds_…`): a save by name that replaces a deck keeps it.
    id TEXT PRIMARY KEY,
    -- `deck` or `deckset`: the two share every column but are named and listed apart.
    kind TEXT NOT NULL,
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
    -- Copies that count, kept beside the piles so listings need not read them (a deck set's
    -- are its decks' together).
    main_count BIGINT NOT NULL,
    sideboard_count BIGINT NOT NULL,
    create_time BIGINT NOT NULL,
    update_time BIGINT NOT NULL
);

-- One deck (or deck set) per name on an account and game, whatever the case: a save by name
-- finds it here.
CREATE UNIQUE INDEX decks_saved_by_name ON decks_saved (owner, game, kind, name_key);
-- The owner's listing, newest first.
CREATE INDEX decks_saved_by_owner ON decks_saved (owner, game, kind, update_time, id);
-- A profile's listing.
CREATE INDEX decks_saved_by_owner_name ON decks_saved (owner_name, kind, public, update_time, id);

-- Templates: saved builder layouts, never cards. The built-in ones are not stored.
CREATE TABLE decks_templates (
    -- Opaque and stable (`tp_…`): saving again by name updates the template and keeps it.
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    owner TEXT NOT NULL,
    owner_name TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    public BIGINT NOT NULL,
    -- The layout (piles, the pile to open on, rules, card ruleset) as a JSON object.
    layout TEXT NOT NULL,
    create_time BIGINT NOT NULL,
    update_time BIGINT NOT NULL
);

CREATE UNIQUE INDEX decks_templates_by_name ON decks_templates (owner, game, name_key);
CREATE INDEX decks_templates_by_owner ON decks_templates (owner, game, update_time, id);
CREATE INDEX decks_templates_by_owner_name ON decks_templates (owner_name, public, update_time, id);

-- The templates an account hid from its pickers (built-in ones: "hide Turny templates you
-- don't use").
CREATE TABLE decks_hidden_templates (
    owner TEXT NOT NULL,
    template TEXT NOT NULL,
    PRIMARY KEY (owner, template)
);
