-- KDE's Klickety (its own mode; its KSame mode is swellfoop.lua's game).
-- Rules as its source has them (KDE/klickety, src/gamescene.cpp): a piece
-- goes only with a neighbour of its colour (canRemovePiece: groups of 2 or
-- more); pieces fall down; an emptied column is filled from the right
-- ("remove empty columns": the columns close up to the left); the game
-- ends when no two neighbours share a colour and reports the pieces left
-- (gameFinished(remain)), the fewer the better: psolve's fewest_left.
return {
  game = "samegame",
  min_group = 2,
  gravity = true,
  shift = "left",
  objective = "fewest_left",
  clear_bonus = 0,
}
