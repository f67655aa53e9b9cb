-- Moves a dead letter back into the stream with its attempts reset.
-- KEYS[1] stream   KEYS[2] dead zset   KEYS[3] job hash
-- ARGV[1] job id
-- Returns 1 when replayed, 0 when the job is not a dead letter.
local job = KEYS[3]
if redis.call('HGET', job, 'state') ~= 'dead' then
  return 0
end
redis.call('ZREM', KEYS[2], ARGV[1])
local t = redis.call('TIME')
local now = string.format('%d', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
local entry = redis.call('XADD', KEYS[1], '*', 'id', ARGV[1])
redis.call('HSET', job, 'state', 'ready', 'attempts', '0', 'entry', entry, 'updated_at', now)
redis.call('HDEL', job, 'lease', 'consumer', 'failed_at')
return 1
