-- The owner's username beside the account id, as typed at sign-up (usernames never change):
-- what a ruleset shows as its `owner` and what a profile lists by. NULL for a ruleset saved
-- before this column, which shows its owner's id.
ALTER TABLE scripts_rulesets ADD COLUMN owner_name TEXT;

CREATE INDEX scripts_rulesets_by_owner_name ON scripts_rulesets (owner_name, game);
