f(print "x")
