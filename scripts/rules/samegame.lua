-- SameGame, research benchmark scoring: a group of n cells scores (n-2)^2,
-- clearing the board scores 1000 more. The same rules as builtin:samegame.
return {
  game = "samegame",
  min_group = 2,
  gravity = true,
  shift = "left",          -- empty columns close up to the left
  objective = "score",
  score = function(n)       -- n = group size; 0 and 1 never score
    if n < 2 then return 0 end
    return (n - 2) ^ 2
  end,
  clear_bonus = 1000,
  end_bonus = function(r) return 0 end,
  prune = { upper_bound = true, memo = true },
}
