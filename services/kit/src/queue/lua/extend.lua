-- Restarts the visibility timeout of a delivery whose lease is still current.
-- KEYS[1] stream   KEYS[2] job hash
-- ARGV[1] group    ARGV[2] lease token
-- Returns 1 when extended, 0 when the lease is no longer current.
local job = KEYS[2]
if redis.call('HGET', job, 'state') ~= 'reserved' or redis.call('HGET', job, 'lease') ~= ARGV[2] then
  return 0
end
local entry = redis.call('HGET', job, 'entry')
local consumer = redis.call('HGET', job, 'consumer')
if not entry or not consumer then
  return 0
end
-- XCLAIM with a minimum idle time of 0 resets the entry's idle time; JUSTID leaves the
-- delivery counter alone.
local claimed = redis.pcall('XCLAIM', KEYS[1], ARGV[1], consumer, 0, entry, 'JUSTID')
if type(claimed) ~= 'table' or claimed.err or #claimed == 0 then
  return 0
end
return 1
