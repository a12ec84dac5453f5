-- Ball Sort: Water Sort where a move takes one ball (one unit) at a time;
-- each move costs 1. Everything else as watersort.lua.
local r = rules("watersort")
r.pour = "one"
return r
