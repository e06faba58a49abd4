print(("x"):rep(1e6):gsub("x", function(c) return c end))
