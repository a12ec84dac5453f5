-- Former (NRK, https://www.nrk.no/former-1.17105310), the daily puzzle of
-- the Norwegian broadcaster: a board of 7 columns and 9 rows of 4 shapes;
-- a click removes the group of the clicked cell, whatever its size (a
-- single cell too); the cells above fall down; an emptied column stays
-- where it is (nothing moves sideways); the board must be cleared in as
-- few clicks as possible. Rules as two public solvers implement them:
-- tommyod/NRK-former-game (board.py: _apply_gravity compacts each column
-- downwards, no column shift; a single cell is a valid click) and
-- martcl/nrk-former (pkg/former-fast/main.go: Gravity per column, a fixed
-- 7x9 board of 4 colours). A cost game: bfs, astar, idastar and dfs find
-- the fewest clicks; psolve gen --rules former makes boards of its size.
return {
  game = "samegame",
  min_group = 1,
  gravity = true,
  shift = "none",
  objective = "fewest_clicks",
  clear_bonus = 0,
  gen = { rows = 9, cols = 7, colors = 4 },
}
