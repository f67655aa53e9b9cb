-- The delivery log of each webhook of a tournament (the hooks themselves are facts of the
-- tournament's log). A delivery is one event for one hook: its id names both, so the same
-- event is recorded once however often it is made; the submission worker sends it.

CREATE TABLE tournaments_webhook_deliveries (
    -- `<hook>.<fact number>.<event>` or `<hook>.<submission>`: also its first queue job's id.
    id TEXT PRIMARY KEY,
    tournament TEXT NOT NULL REFERENCES tournaments_tournaments (id) ON DELETE CASCADE,
    hook TEXT NOT NULL,
    event TEXT NOT NULL,
    -- The JSON body as sent (no secret: the signature is made at each attempt).
    body TEXT NOT NULL,
    -- `pending`, then `delivered` or `failed`.
    state TEXT NOT NULL,
    attempts BIGINT NOT NULL,
    -- The HTTP status of the last attempt, or why it had none.
    last_status BIGINT,
    last_error TEXT,
    create_time BIGINT NOT NULL,
    update_time BIGINT NOT NULL
);

CREATE INDEX tournaments_webhook_deliveries_by_hook
    ON tournaments_webhook_deliveries (tournament, hook, create_time);
CREATE INDEX tournaments_webhook_deliveries_by_state
    ON tournaments_webhook_deliveries (state, update_time);
