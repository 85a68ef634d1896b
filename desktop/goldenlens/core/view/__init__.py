"""How numbers look: metric names, colours, the grid's rows and filters."""
