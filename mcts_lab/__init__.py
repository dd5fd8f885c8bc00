"""The mcts-lab command line: search, tree, bench and arena."""
