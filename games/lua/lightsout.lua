-- Lights Out: pressing a light toggles it and its four neighbours; switch
-- every light off with the fewest presses.
local game = {
  name = "lightsout-lua",
  summary = "Lights Out: switch every light off, fewest presses",
  admissible = true,
  max_moves = 100,
  move_help = "'row col', 1-based: the light pressed",
}

-- The file: rows of '*' (on) and '.' (off), all of one length.
function game.load(text)
  local rows, line = {}, 0
  for row in (text .. "\n"):gmatch("(.-)\r?\n") do
    line = line + 1
    if not row:match("^%s*$") and not row:match("^%s*#") then
      if not row:match("^[%*%.]+$") then
        return nil, "a row is '*' (on) and '.' (off) only", line
      end
      if #rows > 0 and #row ~= #rows[1] then
        return nil, "rows must have the same length", line
      end
      rows[#rows + 1] = row
    end
  end
  if #rows == 0 or #rows * #rows[1] > 100 then
    return nil, "1 to 100 lights, please"
  end
  return {rows = #rows, cols = #rows[1], text = table.concat(rows)}
end

-- A state: the lights row by row, '1' on and '0' off.
function game.start(p)
  return (p.text:gsub("%*", "1"):gsub("%.", "0"))
end

function game.moves(p, s)
  local list = {}
  for i = 1, p.rows * p.cols do
    list[i] = i
  end
  return list
end

local flip = {["0"] = "1", ["1"] = "0"}

function game.apply(p, s, i)
  local cells = {}
  for k = 1, #s do
    cells[k] = s:sub(k, k)
  end
  local r, c = (i - 1) // p.cols, (i - 1) % p.cols
  local around = {{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}}
  for _, d in ipairs(around) do
    local rr, cc = r + d[1], c + d[2]
    if rr >= 0 and rr < p.rows and cc >= 0 and cc < p.cols then
      local k = rr * p.cols + cc + 1
      cells[k] = flip[cells[k]]
    end
  end
  return table.concat(cells), 1
end

function game.is_goal(p, s)
  return not s:find("1", 1, true)
end

-- A press switches off at most five lights.
function game.heuristic(p, s)
  local _, on = s:gsub("1", "")
  return (on + 4) // 5
end

function game.format_move(p, s, i)
  return ((i - 1) // p.cols + 1) .. " " .. ((i - 1) % p.cols + 1)
end

function game.show(p, s)
  local lines = {}
  for r = 0, p.rows - 1 do
    lines[#lines + 1] = s:sub(r * p.cols + 1, (r + 1) * p.cols)
        :gsub("1", "*"):gsub("0", ".")
  end
  return table.concat(lines, "\n")
end

return game
