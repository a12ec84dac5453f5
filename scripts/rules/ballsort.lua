-- Ball Sort: like Water Sort, but a move takes one ball (one unit) at a
-- time; each move costs 1.
return {
  game = "watersort",
  capacity = 4,
  pour = "one",
  cost = "pours",
  solved = "full",
  prune = { memo = true },
}
