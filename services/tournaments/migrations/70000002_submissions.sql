-- Lineups players submit to a tournament, and the verdict the submission worker writes.
-- A registration's latest submission is the one that counts; earlier ones are superseded.

CREATE TABLE tournaments_submissions (
    -- Opaque and stable (`sub_…`): also the id of its queue job.
    id TEXT PRIMARY KEY,
    tournament TEXT NOT NULL REFERENCES tournaments_tournaments (id) ON DELETE CASCADE,
    registration TEXT NOT NULL,
    -- The deck codes or lists as submitted (a JSON array of strings).
    decks TEXT NOT NULL,
    -- `pending`, then `accepted`, `rejected` or `failed` (written once, by the worker).
    state TEXT NOT NULL,
    -- The check's issues (a JSON array of strings), once checked.
    issues TEXT,
    -- Why the check failed (`failed`).
    failure TEXT,
    -- 1 once a later submission of the same registration replaced it.
    superseded BIGINT NOT NULL,
    submit_time BIGINT NOT NULL,
    check_time BIGINT
);

CREATE INDEX tournaments_submissions_by_registration
    ON tournaments_submissions (tournament, registration, superseded);
CREATE INDEX tournaments_submissions_by_state ON tournaments_submissions (state, submit_time);
