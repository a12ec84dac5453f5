-- GNOME's Swell Foop (formerly Same GNOME). Rules as its source has them
-- (GNOME/swell-foop, src/game.vala): a click removes a group of at least 2
-- tiles ("single tile will be ignored"); tiles fall down; empty columns
-- close up to the left; a group of n >= 3 scores (n-2)^2 (a pair scores
-- 0, increment_score_from_tiles); 1000 more when every tile is gone
-- (has_won). The same numbers as samegame.lua, so this script reads it.
local r = rules("samegame")
r.min_group = 2
r.shift = "left"
r.objective = "score"
r.clear_bonus = 1000
return r
