"""The judge metrics, one module per metric (``faithfulness.py`` computes faithfulness),
grouped by family: :mod:`.context` (the retrieved contexts), :mod:`.answer` (the response),
:mod:`.spring_ai` (Spring AI's evaluators), :mod:`.embedding` (vectors only). They share one
run template (:mod:`.base`) and one helper module (:mod:`.helpers`);
:mod:`goldenlens.judge.registry` builds them by name."""
