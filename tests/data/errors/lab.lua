-- a lab whose script names a node it never declared (docs/lua.md, "Errors")
name "lab"
node("m1-1", 1, 2)
distance("m1-1", "m9-1", 3)
