-- PopStar: a group of n cells scores 5*n*n; a game that ends with r < 10
-- cells left earns 2000 - 20*r*r (2000 for a clear). As builtin:popstar.
return {
  game = "samegame",
  min_group = 2,
  gravity = true,
  shift = "left",
  objective = "score",
  score = function(n) return 5 * n * n end,
  clear_bonus = 0,
  end_bonus = function(r)
    if r < 10 then return 2000 - 20 * r * r end
    return 0
  end,
  prune = { upper_bound = true, memo = true },
}
