-- Accounts, their sessions and their API tokens. Portable across PostgreSQL and SQLite: times
-- are BIGINT unix milliseconds. No secret is stored: passwords as argon2id PHC strings (the
-- parameters inside, so they can be raised and rehashed on sign-in), tokens as the SHA-256 of
-- the whole token in lowercase hex.

CREATE TABLE accounts (
    -- Opaque and stable (`acc_…`).
    id TEXT PRIMARY KEY,
    -- As typed at sign-up.
    username TEXT NOT NULL,
    -- The username in lowercase: names are unique without regard to case.
    username_key TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    create_time BIGINT NOT NULL
);

CREATE UNIQUE INDEX accounts_by_username_key ON accounts (username_key);

-- Signed-in sessions (`tns_…`); a row is deleted on sign-out.
CREATE TABLE accounts_sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    create_time BIGINT NOT NULL,
    expire_time BIGINT NOT NULL
);

CREATE INDEX accounts_sessions_by_account ON accounts_sessions (account_id);

-- API tokens for third parties (`tnp_…`); a row is deleted when revoked.
CREATE TABLE accounts_api_tokens (
    -- Opaque (`tok_…`): how the owner names a token to revoke it.
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    account_id TEXT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    -- Scope names, comma-separated in order (`read,write`).
    scopes TEXT NOT NULL,
    create_time BIGINT NOT NULL,
    -- NULL: it does not expire.
    expire_time BIGINT,
    -- NULL: never used. Written at most once a minute per token.
    last_use_time BIGINT
);

CREATE UNIQUE INDEX accounts_api_tokens_by_hash ON accounts_api_tokens (token_hash);
CREATE INDEX accounts_api_tokens_by_account ON accounts_api_tokens (account_id, create_time);
