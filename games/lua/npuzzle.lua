-- The sliding-tile puzzle (8-puzzle) in Lua, the twin of games/npuzzle:
-- the same files, the same moves (the tile that slides), the same
-- Manhattan-distance heuristic. docs/lua-games.md compares their speeds.
local game = {
  name = "npuzzle-lua",
  summary = "sliding-tile puzzle in Lua (twin of the C npuzzle)",
  admissible = true,
  max_moves = 4,
  max_depth = 200,
  move_help = "the number of the tile that slides into the blank",
}

-- The file: n rows of n numbers, 0 or '.' for the blank.
function game.load(text)
  local tiles, n, line = {}, nil, 0
  for row in (text .. "\n"):gmatch("(.-)\r?\n") do
    line = line + 1
    row = row:gsub("#.*", "")
    if row:match("%S") then
      local count = 0
      for word in row:gmatch("%S+") do
        local t = word == "." and 0 or tonumber(word)
        if not t then
          return nil, "expected a tile number or '.', got '" .. word .. "'", line
        end
        tiles[#tiles + 1] = t
        count = count + 1
      end
      n = n or count
      if count ~= n then
        return nil, "rows must have the same number of tiles", line
      end
    end
  end
  if not n or #tiles ~= n * n or n < 2 or n > 5 then
    return nil, "the puzzle must be square, 2x2 to 5x5"
  end
  local seen = {}
  for _, t in ipairs(tiles) do
    if t >= n * n or seen[t] then
      return nil, "tiles must be 0.." .. (n * n - 1) .. ", each once"
    end
    seen[t] = true
  end
  -- Where each tile belongs, and each cell's neighbours.
  local goal_row, goal_col, near = {}, {}, {}
  for i = 0, n * n - 1 do
    local t = (i + 1) % (n * n)
    goal_row[t], goal_col[t] = i // n, i % n
    local r, c = i // n, i % n
    near[i + 1] = {}
    if r > 0 then table.insert(near[i + 1], i + 1 - n) end
    if r < n - 1 then table.insert(near[i + 1], i + 1 + n) end
    if c > 0 then table.insert(near[i + 1], i) end
    if c < n - 1 then table.insert(near[i + 1], i + 2) end
  end
  local goal = {}
  for i = 1, n * n - 1 do
    goal[i] = i
  end
  goal[n * n] = 0
  return {n = n, tiles = tiles, goal_row = goal_row, goal_col = goal_col,
          near = near, goal = string.char(table.unpack(goal))}
end

-- A state is a string, one byte per cell (the tile number), row by row.
function game.start(p)
  return string.char(table.unpack(p.tiles))
end

-- A move is the number of the tile that slides into the blank.
function game.moves(p, s)
  local blank = s:find("\0", 1, true)
  local list = {}
  for _, k in ipairs(p.near[blank]) do
    list[#list + 1] = s:byte(k)
  end
  return list
end

function game.apply(p, s, tile)
  local blank = s:find("\0", 1, true)
  local from = s:find(string.char(tile), 1, true)
  local b = {s:byte(1, -1)}
  b[blank], b[from] = tile, 0
  return string.char(table.unpack(b)), 1
end

-- Solved: the tiles 1, 2, ... in order, the blank last.
function game.is_goal(p, s)
  return s == p.goal
end

-- The sum over tiles of their row and column distances from home.
function game.heuristic(p, s)
  local h, n = 0, p.n
  for i = 1, #s do
    local t = s:byte(i)
    if t ~= 0 then
      local r, c = (i - 1) // n, (i - 1) % n
      h = h + math.abs(r - p.goal_row[t]) + math.abs(c - p.goal_col[t])
    end
  end
  return h
end

function game.show(p, s)
  local lines = {}
  for r = 0, p.n - 1 do
    local row = {}
    for c = 1, p.n do
      local t = s:byte(r * p.n + c)
      row[c] = t == 0 and "." or tostring(t)
    end
    lines[#lines + 1] = table.concat(row, " ")
  end
  return table.concat(lines, "\n")
end

return game
