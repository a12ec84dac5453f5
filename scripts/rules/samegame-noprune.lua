-- SameGame rules with the search's pruning switched off: for teaching,
-- run the same board with --rules samegame and --rules samegame-noprune
-- and compare the node counts (explicit options such as --no-memo still
-- win over these defaults).
local r = rules("samegame")
r.prune = { upper_bound = false, memo = false }
return r
