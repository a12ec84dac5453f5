-- Clickomania: leave as few cells as possible. Every removed cell counts
-- one point, so the best line is the one that leaves fewest cells.
-- As builtin:clickomania.
return {
  game = "samegame",
  min_group = 2,
  gravity = true,
  shift = "left",
  objective = "fewest_left",
  clear_bonus = 0,
  prune = { memo = true },
}
