"""The judge metrics, one module per metric (``faithfulness.py`` computes faithfulness), on
one run template and one helper module (:mod:`.helpers`); :mod:`goldenlens.judge.registry`
builds them by name."""
