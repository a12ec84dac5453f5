local r = rules("samegame")
r.score = function(n, colour)
  local base = n >= 2 and (n - 2)^2 or 0
  if colour == 1 then return 2 * base end
  return base
end
return r
