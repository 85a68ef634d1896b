"""Spring AI's pass/fail evaluators: relevancy, and fact checking (with Bespoke-MiniCheck as
trained)."""
