-- Jawbreaker-style scoring: a group of n balls scores n*(n-1) (2 for a
-- pair, 6 for three, 90 for ten), groups of 2 or more, balls fall down,
-- empty columns close up to the left, no bonus for a cleared board.
-- Sources: the n(n-1) table is the one issue 34 names for Jawbreaker
-- (Windows Mobile); public descriptions disagree on the details -- a
-- contest problem titled "Jawbreaker" (found in the Nemotron-CC-Math
-- collection) uses groups of 3 or more, n^2 per group and 1000 for a
-- clear. Change min_group, score and clear_bonus below for that variant.
return {
  game = "samegame",
  min_group = 2,
  gravity = true,
  shift = "left",
  objective = "score",
  score = function(n)
    if n < 2 then return 0 end
    return n * (n - 1)
  end,
  clear_bonus = 0,
}
