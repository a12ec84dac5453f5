-- Water Sort: tubes of 4 units; a pour moves the whole run of the top
-- colour that fits into the target; every pour costs 1; solved when every
-- tube is empty or full of one colour. As builtin:watersort.
return {
  game = "watersort",
  capacity = 4,      -- when the level file has no 'capacity' line
  pour = "all",
  goal = "full",
  cost = "pours",
  -- Search defaults; the four game prunings are sound (docs/watersort.md).
  prune = {
    memo = true,
    complete = true,         -- never pour out of a completed tube
    single_to_empty = true,  -- never pour a one-colour tube into an empty one
    empty_targets = true,    -- pour into the first empty tube only
    commute = true,          -- independent pours in one order only
  },
}
