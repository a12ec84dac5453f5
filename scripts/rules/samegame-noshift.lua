-- SameGame without the column shift: an emptied column stays where it is,
-- so groups on either side of it never meet. Everything else (scoring,
-- gravity) as samegame.lua.
local r = rules("samegame")
r.shift = "none"
return r
