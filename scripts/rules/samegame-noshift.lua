-- SameGame without the column shift: an emptied column stays where it is,
-- so groups on either side of it never meet. Scoring as samegame.lua.
return {
  game = "samegame",
  min_group = 2,
  gravity = true,
  shift = "none",
  objective = "score",
  score = function(n)       -- n = group size; 0 and 1 never score
    if n < 2 then return 0 end
    return (n - 2) ^ 2
  end,
  clear_bonus = 1000,
  end_bonus = function(r) return 0 end,
}
