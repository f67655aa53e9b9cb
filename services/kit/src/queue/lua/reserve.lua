-- Hands one job to a consumer: a job whose lease ran out first, else a new one.
-- KEYS[1] stream   KEYS[2] delayed zset   KEYS[3] dead zset
-- ARGV[1] group    ARGV[2] consumer       ARGV[3] lease token
-- ARGV[4] visibility timeout (ms)         ARGV[5] max attempts
-- ARGV[6] job key prefix ("<prefix>:<queue>:job:")
-- ARGV[7] last_error for a job lost on its last attempt
-- Returns {found (0/1), job id, payload, attempt, stream entry id, jobs dead-lettered}.
local stream, delayed, dead = KEYS[1], KEYS[2], KEYS[3]
local group, consumer, lease = ARGV[1], ARGV[2], ARGV[3]
local idle = ARGV[4]
local max_attempts = tonumber(ARGV[5])
local job_prefix = ARGV[6]
local lost_message = ARGV[7]
local t = redis.call('TIME')
local now_ms = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local now = string.format('%d', now_ms)
local buried = 0

-- Retries whose backoff has passed go back to the stream as new entries.
local due = redis.call('ZRANGEBYSCORE', delayed, '-inf', now, 'LIMIT', 0, 100)
for _, id in ipairs(due) do
  local job = job_prefix .. id
  redis.call('ZREM', delayed, id)
  if redis.call('HGET', job, 'state') == 'delayed' then
    local entry = redis.call('XADD', stream, '*', 'id', id)
    redis.call('HSET', job, 'state', 'ready', 'entry', entry, 'updated_at', now)
  end
end

local function drop_entry(entry)
  redis.call('XACK', stream, group, entry)
  redis.call('XDEL', stream, entry)
end

local function job_id_of(fields)
  for i = 1, #fields, 2 do
    if fields[i] == 'id' then
      return fields[i + 1]
    end
  end
  return nil
end

-- Returns the reply for a deliverable entry, or nil after dropping one that is not.
local function hand_out(entry, fields, redelivery)
  local id = job_id_of(fields)
  if not id then
    drop_entry(entry)
    return nil
  end
  local job = job_prefix .. id
  local state = redis.call('HGET', job, 'state')
  -- Gone (a completed job whose record expired), completed, or an entry the job has moved
  -- on from: acknowledge the entry without running the job again.
  if not state or state == 'done' or redis.call('HGET', job, 'entry') ~= entry then
    drop_entry(entry)
    return nil
  end
  local attempts = tonumber(redis.call('HGET', job, 'attempts') or '0')
  if redelivery and attempts >= max_attempts then
    drop_entry(entry)
    redis.call('HSET', job, 'state', 'dead', 'last_error', lost_message,
      'failed_at', now, 'updated_at', now)
    redis.call('HDEL', job, 'lease', 'entry')
    redis.call('ZADD', dead, now, id)
    buried = buried + 1
    return nil
  end
  attempts = attempts + 1
  redis.call('HSET', job, 'state', 'reserved', 'attempts', string.format('%d', attempts),
    'lease', lease, 'consumer', consumer, 'updated_at', now)
  return {1, id, redis.call('HGET', job, 'payload') or '', attempts, entry, buried}
end

-- Entries idle for longer than the visibility timeout belong to a lost consumer.
local cursor = '0-0'
for _ = 1, 50 do
  local claimed = redis.pcall('XAUTOCLAIM', stream, group, consumer, idle, cursor, 'COUNT', 1)
  if type(claimed) == 'table' and claimed.err then
    if string.find(claimed.err, 'NOGROUP', 1, true) then
      -- The group vanished (or the stream never existed): create it from the start of the
      -- stream, so that every entry still in it is delivered.
      redis.call('XGROUP', 'CREATE', stream, group, '0', 'MKSTREAM')
      break
    end
    return redis.error_reply(claimed.err)
  end
  cursor = claimed[1]
  for _, item in ipairs(claimed[2]) do
    local reply = hand_out(item[1], item[2], true)
    if reply then
      return reply
    end
  end
  if cursor == '0-0' then
    break
  end
end

for _ = 1, 20 do
  local read = redis.call('XREADGROUP', 'GROUP', group, consumer, 'COUNT', 1,
    'STREAMS', stream, '>')
  if not read then
    break
  end
  local item = read[1][2][1]
  if not item then
    break
  end
  local reply = hand_out(item[1], item[2], false)
  if reply then
    return reply
  end
end

return {0, '', '', 0, '', buried}
