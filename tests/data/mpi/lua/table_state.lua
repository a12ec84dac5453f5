-- A cost game whose states are tables (with a key function), for
-- psolve-mpi's hdastar (tests/test_mpi.c): states travel between ranks by
-- value, nested tables, booleans, floats and strings included. Climb from
-- 0 to the target by steps of 1 or 2.
local game = {
  name = "table_state",
  objective = "cost",
  max_moves = 2,
  admissible = true,
}
function game.load(text)
  local n = text:match("^%s*target%s+(%d+)%s*$")
  if not n then return nil, "expected 'target N'", 1 end
  return tonumber(n)
end
function game.start(p)
  return {n = 0, seen = {steps = {}, last = "start"}, up = true, half = 0.5}
end
function game.key(p, s) return s.n end
function game.moves(p, s)
  assert(s.up == true and s.half == 0.5 and s.seen.last)
  return {1, 2}
end
function game.apply(p, s, m)
  local steps = {}
  for i, v in ipairs(s.seen.steps) do steps[i] = v end
  steps[#steps + 1] = m
  return {n = s.n + m, seen = {steps = steps, last = tostring(m)}, up = true,
          half = 0.5}, 1
end
function game.is_goal(p, s) return s.n == p end
function game.heuristic(p, s)
  return s.n >= p and 0 or (p - s.n + 1) // 2
end
return game
