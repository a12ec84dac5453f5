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

-- The puzzle file: "disks N". The puzzle is the number of disks.
function game.load(text)
  local n = text:match("^%s*disks%s+(%d+)%s*$")
  if not n then
    return nil, "expected 'disks N' (N from 1 to 12)", 1
  end
  n = tonumber(n)
  if n < 1 or n > 12 then
    return nil, "the number of disks must be 1 to 12", 1
  end
  return n
end

-- A state is a string: character i is the peg (1, 2 or 3) of disk i,
-- disk 1 the smallest. Strings are their own key.
function game.start(n)
  return string.rep("1", n)
end

-- The top disk of a peg is the smallest disk on it (nil: empty peg).
local function top(s, peg)
  return s:find(tostring(peg), 1, true)
end

function game.moves(n, s)
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

function game.apply(n, s, move)
  local from, to = move:match("(%d) (%d)")
  local disk = top(s, from)
  return s:sub(1, disk - 1) .. to .. s:sub(disk + 1), 1
end

function game.is_goal(n, s)
  return s == string.rep("3", n)
end

-- Every disk not yet on peg 3 must move at least once.
function game.heuristic(n, s)
  local _, on3 = s:gsub("3", "")
  return n - on3
end

function game.show(n, s)
  local pegs = {{}, {}, {}}
  for disk = n, 1, -1 do
    local peg = pegs[tonumber(s:sub(disk, disk))]
    peg[#peg + 1] = disk
  end
  local lines = {}
  for i = 1, 3 do
    lines[i] = "peg " .. i .. ": " .. table.concat(pegs[i], " ")
  end
  return table.concat(lines, "\n")
end

return game
