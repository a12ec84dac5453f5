-- Water Sort: tubes of 4 units; a pour moves as much of the top colour as
-- fits into the target; every pour costs 1; solved when every tube is empty
-- or full of one colour.
return {
  game = "watersort",
  capacity = 4,
  pour = "fill",
  cost = "pours",
  solved = "full",
  prune = { memo = true },
}
