return { game = "watersort", pour = "one", goal = "partial", cost = "units",
         prune = { memo = false } }
