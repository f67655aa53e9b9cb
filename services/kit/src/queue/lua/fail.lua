-- Takes a failed job out of the stream: into the delayed set, or into the dead letters.
-- KEYS[1] stream   KEYS[2] delayed zset   KEYS[3] dead zset   KEYS[4] job hash
-- ARGV[1] group    ARGV[2] job id         ARGV[3] lease token  ARGV[4] error
-- ARGV[5] "1" to dead-letter             ARGV[6] backoff (ms)
-- Returns {0, 0} when the lease is not current, {1, due ms} for a retry, {2, now ms} when dead.
local job = KEYS[4]
if redis.call('HGET', job, 'state') ~= 'reserved' or redis.call('HGET', job, 'lease') ~= ARGV[3] then
  return {0, 0}
end
local entry = redis.call('HGET', job, 'entry')
if entry then
  redis.pcall('XACK', KEYS[1], ARGV[1], entry)
  redis.call('XDEL', KEYS[1], entry)
end
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local now = string.format('%d', now_ms)
redis.call('HDEL', job, 'lease', 'entry')
if ARGV[5] == '1' then
  redis.call('HSET', job, 'state', 'dead', 'last_error', ARGV[4], 'failed_at', now,
    'updated_at', now)
  redis.call('ZADD', KEYS[3], now, ARGV[2])
  return {2, now_ms}
end
local due = now_ms + tonumber(ARGV[6])
redis.call('HSET', job, 'state', 'delayed', 'last_error', ARGV[4], 'updated_at', now)
redis.call('ZADD', KEYS[2], string.format('%d', due), ARGV[2])
return {1, due}
