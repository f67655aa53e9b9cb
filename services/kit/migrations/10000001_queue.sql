-- The embedded job queue (kit::queue, SQL backend): one row per job id and queue.
--
-- Portable across PostgreSQL and SQLite: TEXT, BIGINT, times in unix milliseconds.
-- `payload` is BYTEA: PostgreSQL's byte string; SQLite accepts any type name and stores
-- the bound blob unchanged (a blob is never converted by column affinity).
--
-- state      ready   waiting to be reserved once visible_at has passed (delayed while it has not)
--            running reserved by `consumer` under `lease` until visible_at (the visibility timeout)
--            done    acknowledged; kept so that enqueueing the same id again is a duplicate
--            dead    failed max_attempts times; kept for inspection and replay
-- attempts   how many times the job has been handed out since it was enqueued or replayed
CREATE TABLE kit_jobs (
    queue       TEXT    NOT NULL,
    id          TEXT    NOT NULL,
    payload     BYTEA   NOT NULL,
    state       TEXT    NOT NULL,
    attempts    BIGINT  NOT NULL DEFAULT 0,
    visible_at  BIGINT  NOT NULL,
    lease       TEXT,
    consumer    TEXT,
    last_error  TEXT,
    created_at  BIGINT  NOT NULL,
    updated_at  BIGINT  NOT NULL,
    PRIMARY KEY (queue, id)
);

-- Reserve scans one queue's ready and running jobs in visible_at order.
CREATE INDEX kit_jobs_by_visibility ON kit_jobs (queue, state, visible_at);
