"""The parts of `tools/perf-report`: common (helpers), sections (what runs for each primitive and
how its JSON becomes table rows and sweep lines) and dist (the distributed section)."""
