-- Missionaries and cannibals: carry everyone across the river in a boat
-- that holds a few people and needs one to row. Cannibals may never
-- outnumber missionaries on a bank where there are missionaries (the boat
-- counts with the bank it is at).
local game = {
  name = "river",
  summary = "missionaries and cannibals: everyone across, fewest crossings",
  admissible = true,
  move_help = "'M C': the missionaries and cannibals in the boat",
}

-- The file: "missionaries 3", "cannibals 3", "boat 2", one per line, and
-- optionally "start M C B": a position to start from (M missionaries and C
-- cannibals on the start bank, B = 1 while the boat is there), so that a
-- position printed by show loads back.
function game.load(text)
  local p, line = {}, 0
  for row in (text .. "\n"):gmatch("(.-)\r?\n") do
    line = line + 1
    local key, n = row:match("^%s*(%a+)%s+(%d+)%s*$")
    local sm, sc, sb = row:match("^%s*start%s+(%d+)%s+(%d+)%s+([01])%s*$")
    if key and (key == "missionaries" or key == "cannibals" or key == "boat") then
      p[key] = tonumber(n)
    elseif sm then
      p.start = sm .. " " .. sc .. " " .. sb
    elseif not row:match("^%s*$") and not row:match("^%s*#") then
      return nil, "expected 'missionaries N', 'cannibals N' or 'boat N'", line
    end
  end
  if not (p.missionaries and p.cannibals and p.boat) then
    return nil, "the file needs missionaries, cannibals and boat"
  end
  if p.boat < 1 or p.missionaries > 50 or p.cannibals > 50 then
    return nil, "the boat holds at least 1; at most 50 of each"
  end
  if p.start then
    local m, c = p.start:match("(%d+) (%d+)")
    if tonumber(m) > p.missionaries or tonumber(c) > p.cannibals then
      return nil, "start: more on the bank than there are"
    end
  end
  return p
end

-- A state is "m c b": missionaries and cannibals on the start bank, and
-- b = 1 while the boat is there.
local function decode(s)
  local m, c, b = s:match("(%d+) (%d+) (%d)")
  return tonumber(m), tonumber(c), tonumber(b)
end

local function safe(m, c)
  return m == 0 or m >= c
end

function game.start(p)
  return p.start or (p.missionaries .. " " .. p.cannibals .. " 1")
end

function game.moves(p, s)
  local m, c, b = decode(s)
  -- The people who can board: those on the boat's bank.
  local am, ac = m, c
  if b == 0 then
    am, ac = p.missionaries - m, p.cannibals - c
  end
  local list = {}
  for bm = 0, math.min(am, p.boat) do
    for bc = 0, math.min(ac, p.boat - bm) do
      if bm + bc >= 1 and (bm == 0 or bm >= bc) then
        local sign = b == 1 and -1 or 1
        local nm, nc = m + sign * bm, c + sign * bc
        if safe(nm, nc) and safe(p.missionaries - nm, p.cannibals - nc) then
          list[#list + 1] = bm .. " " .. bc
        end
      end
    end
  end
  return list
end

function game.apply(p, s, move)
  local m, c, b = decode(s)
  local bm, bc = move:match("(%d+) (%d+)")
  local sign = b == 1 and -1 or 1
  return (m + sign * bm) .. " " .. (c + sign * bc) .. " " .. (1 - b), 1
end

function game.is_goal(p, s)
  return s == "0 0 0"
end

-- Each crossing to the far bank carries at most `boat` people; with the
-- boat on the far side, someone must first row back.
function game.heuristic(p, s)
  local m, c, b = decode(s)
  local left = m + c
  if left == 0 then
    return 0
  elseif b == 1 then
    return (left + p.boat - 1) // p.boat
  end
  return 1 + (left + p.boat) // p.boat
end

-- The position as a file that loads back, the banks drawn in a comment.
function game.show(p, s)
  local m, c, b = decode(s)
  local function bank(nm, nc)
    return string.rep("M", nm) .. string.rep("C", nc)
  end
  return "# " .. bank(m, c) ..
         (b == 1 and " [boat] ~~~~~~ " or " ~~~~~~ [boat] ") ..
         bank(p.missionaries - m, p.cannibals - c) .. "\n" ..
         "missionaries " .. p.missionaries .. "\ncannibals " .. p.cannibals ..
         "\nboat " .. p.boat .. "\nstart " .. s
end

return game
