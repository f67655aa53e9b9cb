-- The card catalog: cards as their canonical JSON, every ref that resolves to a card, and
-- each game's globals, sets and catalog version. Portable across PostgreSQL and SQLite.

CREATE TABLE catalog_cards (
    game TEXT NOT NULL,
    id TEXT NOT NULL,
    -- Catalog order within the game.
    position BIGINT NOT NULL,
    name TEXT NOT NULL,
    -- The card object, canonical proto3 JSON (the documented card JSON).
    card_json TEXT NOT NULL,
    PRIMARY KEY (game, id)
);

CREATE INDEX catalog_cards_by_position ON catalog_cards (game, position);

-- Every ref that resolves to a card: its own id, printing ids, variant ids, older ids.
CREATE TABLE catalog_refs (
    game TEXT NOT NULL,
    ref TEXT NOT NULL,
    card_id TEXT NOT NULL,
    PRIMARY KEY (game, ref)
);

CREATE TABLE catalog_games (
    game TEXT PRIMARY KEY,
    -- Changes whenever an import changes the game's cards, globals or sets.
    version TEXT NOT NULL,
    globals_json TEXT NOT NULL,
    sets_json TEXT NOT NULL,
    imported_at BIGINT NOT NULL
);
