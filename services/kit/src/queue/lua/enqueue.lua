-- Adds a job unless its id is already known (waiting, running, done or dead).
-- KEYS[1] stream   KEYS[2] job hash
-- ARGV[1] job id   ARGV[2] payload
-- Returns 1 when added, 0 for a duplicate.
if redis.call('EXISTS', KEYS[2]) == 1 then
  return 0
end
local t = redis.call('TIME')
local now = string.format('%d', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
local entry = redis.call('XADD', KEYS[1], '*', 'id', ARGV[1])
redis.call('HSET', KEYS[2], 'payload', ARGV[2], 'state', 'ready', 'attempts', '0',
  'entry', entry, 'enqueued_at', now, 'updated_at', now)
return 1
