"""One module per command of ``fastxfen``; each has ``run(args)``, which
returns the exit status."""
