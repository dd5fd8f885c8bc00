"""The ``mcts-lab`` commands, one module each: ``add_parser(sub)`` adds its sub-command and
flags, ``run(args)`` does it and returns the exit status. ``mcts_lab/cli.py`` assembles them;
``options.py`` holds what they share (argument types, option groups, ``UsageError``)."""
