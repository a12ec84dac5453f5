-- KDE's Klickety (its own mode; its KSame mode is swellfoop.lua's game).
-- Rules as its source has them (KDE/klickety, src/gamescene.cpp): a piece
-- goes only with a neighbour of its colour (canRemovePiece: groups of 2 or
-- more); pieces fall down; an emptied column is filled from the right
-- ("remove empty columns": the columns close up to the left); the game
-- ends when no two neighbours share a colour and reports the pieces left
-- (gameFinished(remain)), the fewer the better: psolve's fewest_left.
-- Those are Clickomania's rules, taken from there rather than written twice.
return rules("clickomania")
