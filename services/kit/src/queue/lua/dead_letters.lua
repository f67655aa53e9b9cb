-- Lists the dead letters of one queue, oldest first.
-- KEYS[1] dead zset
-- ARGV[1] job key prefix ("<prefix>:<queue>:job:")
-- Returns a list of {job id, payload, attempts, last_error, failed_at ms}.
local out = {}
for _, id in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  local fields = redis.call('HMGET', ARGV[1] .. id, 'payload', 'attempts', 'last_error', 'failed_at')
  table.insert(out, {id, fields[1] or '', fields[2] or '0', fields[3] or '', fields[4] or '0'})
end
return out
