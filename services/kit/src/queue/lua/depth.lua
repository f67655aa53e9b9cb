-- Counts one queue's jobs by state, in one consistent snapshot.
-- KEYS[1] stream   KEYS[2] delayed zset   KEYS[3] dead zset
-- ARGV[1] group
-- Returns {ready, in flight, delayed, dead}.
local in_stream = redis.call('XLEN', KEYS[1])
local pending = 0
local summary = redis.pcall('XPENDING', KEYS[1], ARGV[1])
if type(summary) == 'table' and not summary.err then
  pending = summary[1]
end
local t = redis.call('TIME')
local now = string.format('%d', tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000))
-- Retries that are due count as ready: the next reserve moves them into the stream.
local due = redis.call('ZCOUNT', KEYS[2], '-inf', now)
local delayed = redis.call('ZCARD', KEYS[2])
return {in_stream - pending + due, pending, delayed - due, redis.call('ZCARD', KEYS[3])}
