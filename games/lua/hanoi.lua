-- Towers of Hanoi: move the tower of disks from peg 1 to peg 3, one disk
-- at a time, never a larger disk on a smaller one. n disks take 2^n - 1
-- moves. docs/lua-games.md explains this file line by line.
local game = {
  name = "hanoi",
  summary = "Towers of Hanoi: move the tower to peg 3 (2^n - 1 moves)",
  objective = "cost",
  admissible = true,
  max_moves = 6,
  move_help = "'from to': peg numbers 1..3",
}

-- The puzzle file: "disks N", then optionally a position, one line a peg
-- ("peg 1: 4 3", "peg 2: 1", "peg 3: 2"), as game.show prints it. The
-- puzzle is the start: a state (below).
function game.load(text)
  local n = text:match("^%s*disks%s+(%d+)%s*\n?")
  if not n then
    return nil, "expected 'disks N' (N from 1 to 12)", 1
  end
  n = tonumber(n)
  if n < 1 or n > 12 then
    return nil, "the number of disks must be 1 to 12", 1
  end
  local at, placed, line = {}, 0, 0
  for row in (text .. "\n"):gmatch("(.-)\r?\n") do
    line = line + 1
    local peg, disks = row:match("^%s*peg%s+([123]):(.*)$")
    for d in (disks or ""):gmatch("%d+") do
      d = tonumber(d)
      if d < 1 or d > n or at[d] then
        return nil, "disk " .. d .. ": no such disk, or on two pegs", line
      end
      at[d], placed = peg, placed + 1
    end
    if not peg and line > 1 and not row:match("^%s*$") then
      return nil, "expected 'peg P: DISKS' after 'disks N'", line
    end
  end
  if placed > 0 and placed < n then
    return nil, "a position must put every disk on a peg", line
  end
  local start = {}
  for d = 1, n do
    start[d] = at[d] or "1"
  end
  return table.concat(start)
end

-- A state is a string: character i is the peg (1, 2 or 3) of disk i,
-- disk 1 the smallest. Strings are their own key. The puzzle is its start.
function game.start(start)
  return start
end

-- The top disk of a peg is the smallest disk on it (nil: empty peg).
local function top(s, peg)
  return s:find(tostring(peg), 1, true)
end

function game.moves(start, s)
  local list = {}
  for from = 1, 3 do
    local disk = top(s, from)
    if disk then
      for to = 1, 3 do
        local other = top(s, to)
        if to ~= from and (not other or other > disk) then
          list[#list + 1] = from .. " " .. to
        end
      end
    end
  end
  return list
end

function game.apply(start, s, move)
  local from, to = move:match("(%d) (%d)")
  local disk = top(s, from)
  return s:sub(1, disk - 1) .. to .. s:sub(disk + 1), 1
end

function game.is_goal(start, s)
  return s == string.rep("3", #start)
end

-- Every disk not yet on peg 3 must move at least once.
function game.heuristic(start, s)
  local _, on3 = s:gsub("3", "")
  return #start - on3
end

-- The position as a file that loads back.
function game.show(start, s)
  local pegs = {{}, {}, {}}
  for disk = #start, 1, -1 do
    local peg = pegs[tonumber(s:sub(disk, disk))]
    peg[#peg + 1] = disk
  end
  local lines = {"disks " .. #start}
  for i = 1, 3 do
    lines[i + 1] = "peg " .. i .. ": " .. table.concat(pegs[i], " ")
  end
  return table.concat(lines, "\n")
end

return game
