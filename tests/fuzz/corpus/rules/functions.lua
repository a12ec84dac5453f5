-- Function keys are tabulated for every index; a variant built on a
-- shipped script with rules().
local base = rules("samegame")
base.score = function(n) return n * n - 3 * n + 2 end
base.end_bonus = function(r) if r == 0 then return 500 else return -r end end
base.min_group = 3
return base
