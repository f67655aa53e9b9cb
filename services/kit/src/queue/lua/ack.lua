-- Records a job as completed, whoever holds it now: the work is done.
-- KEYS[1] stream   KEYS[2] delayed zset   KEYS[3] dead zset   KEYS[4] job hash
-- ARGV[1] group    ARGV[2] job id         ARGV[3] how long to remember the id (ms)
-- Returns 1 when the job was completed now, 0 when it already was (or is unknown).
local job = KEYS[4]
local state = redis.call('HGET', job, 'state')
if not state or state == 'done' then
  return 0
end
local entry = redis.call('HGET', job, 'entry')
if entry then
  redis.pcall('XACK', KEYS[1], ARGV[1], entry)
  redis.call('XDEL', KEYS[1], entry)
end
redis.call('ZREM', KEYS[2], ARGV[2])
redis.call('ZREM', KEYS[3], ARGV[2])
local t = redis.call('TIME')
local now = string.format('%d', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
redis.call('HSET', job, 'state', 'done', 'completed_at', now, 'updated_at', now)
redis.call('HDEL', job, 'payload', 'lease', 'entry')
redis.call('PEXPIRE', job, ARGV[3])
return 1
