-- pick, a score game: take 1..3 from a pile, gain m*m. moves() fails on
-- a pile of 5, a position the best line (take 3 each time from 12) never
-- reaches but random lines do: with --tasks 1 on 2 ranks, only rank 1's
-- tasks meet the error (tests/test_mpi.c).
local game = {
  name = "pick_fails",
  objective = "score",
  max_moves = 3,
}
function game.load(text)
  local n = text:match("^%s*count%s+(%d+)%s*$")
  if not n then return nil, "expected 'count N'", 1 end
  return tonumber(n)
end
function game.start(p) return p end
function game.moves(p, s)
  if s == 5 then error("a pile of five") end
  local l = {}
  for m = 1, math.min(3, s) do l[#l + 1] = m end
  return l
end
function game.apply(p, s, m)
  return s - m, m * m
end
function game.upper_bound(p, s)
  return s * 3
end
return game
